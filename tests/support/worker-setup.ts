// Integration tests run the real implementations; keep generated secrets and folders out of ./data.
import os from "node:os";
import path from "node:path";
import fs from "node:fs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aligner-it-"));
process.env.DATA_DIR ??= dir;
process.env.APP_ENV ??= "test";
