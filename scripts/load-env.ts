import fs from "node:fs";

/** Local runs may keep settings in ./.env; variables already set always win. */
if (fs.existsSync(".env")) process.loadEnvFile(".env");
