/**
 * Downloads as other machines make them, in a process of its own, so the reading costs the test
 * process nothing while it times what another visitor meets. Each line on standard input is a list
 * of requests; they are all made at once, each read to the end as fast as the connection gives it,
 * and one JSON line answers: each answer's status, its `Retry-After` and `Content-Language`, the
 * bytes of a 200 and whether they end as a ZIP does, the text of any other answer.
 *
 *   node --import tsx tests/support/downloads.mts   (then '[{"url":"http://…","cookie":"…"}]' a line)
 */
import readline from "node:readline";

interface Asked {
  url: string;
  cookie: string;
  method?: string;
}

async function download({ url, cookie, method }: Asked) {
  const response = await fetch(url, { method, headers: { Cookie: cookie }, redirect: "manual" });
  const base = { status: response.status, retryAfter: response.headers.get("Retry-After"), language: response.headers.get("Content-Language") };
  if (response.status !== 200 || !response.body) return { ...base, bytes: 0, zip: false, text: response.status === 200 ? "" : await response.text() };
  let bytes = 0;
  let tail = Buffer.alloc(0);
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    tail = Buffer.concat([tail.subarray(-22), read.value.subarray(-22)]);
  }
  // The last 22 bytes of a ZIP without a comment are its end-of-central-directory record.
  return { ...base, bytes, zip: tail.length >= 22 && tail.subarray(-22).readUInt32LE(0) === 0x06054b50, text: "" };
}

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const asked = JSON.parse(line) as Asked[];
  console.log(JSON.stringify(await Promise.all(asked.map(download))));
}
