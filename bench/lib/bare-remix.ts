import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { freePort } from "../../tests/support/free-port";

/**
 * The floor our pages are measured against (DESIGN §7): a bare Remix app with one route, built in the
 * same run with the same @remix-run/* packages (this repository's node_modules, symlinked) and the
 * same `future` flags as remix.config.js, by the same classic compiler, and served by `remix-serve`
 * (express + compression, as our server.mts) with NODE_ENV=production.
 */
export interface BareRemix {
  url: string;
  dir: string;
  pid: number;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

const ROOT_TSX = `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
`;

const INDEX_TSX = `import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "New Remix App" }, { name: "description", content: "Welcome to Remix!" }];

export default function Index() {
  return (
    <main>
      <h1>Welcome to Remix</h1>
      <p>A bare route: the floor of what a Remix page costs.</p>
    </main>
  );
}
`;

/**
 * Writes and builds the bare app in a temporary folder; returns the folder. `extraRoutes` adds that
 * many more trivial routes (the app has ~50), to measure what the route count alone costs Remix.
 */
export async function buildBareRemix(extraRoutes = 0): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bare-remix-"));
  const ours = (await import(pathToFileURL(path.join(ROOT, "remix.config.js")).href)) as { default: { future?: Record<string, boolean>; serverModuleFormat?: string } };
  fs.mkdirSync(path.join(dir, "app/routes"), { recursive: true });
  fs.mkdirSync(path.join(dir, "public"));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  // The compiler picks the server runtime and default entries from package.json: the versions installed here.
  const version = (name: string) => (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  const dependencies = Object.fromEntries(["@remix-run/node", "@remix-run/react", "@remix-run/serve", "isbot", "react", "react-dom"].map((name) => [name, version(name)]));
  const devDependencies = { "@remix-run/dev": version("@remix-run/dev") };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "bare-remix", private: true, sideEffects: false, type: "module", dependencies, devDependencies }, null, 2));
  fs.writeFileSync(
    path.join(dir, "remix.config.js"),
    `export default ${JSON.stringify({ serverModuleFormat: ours.default.serverModuleFormat ?? "esm", future: ours.default.future ?? {} }, null, 2)};\n`,
  );
  fs.writeFileSync(path.join(dir, "app/root.tsx"), ROOT_TSX);
  fs.writeFileSync(path.join(dir, "app/routes/_index.tsx"), INDEX_TSX);
  for (let index = 1; index <= extraRoutes; index++) {
    const segment = index % 3 === 0 ? `area${index}.$id` : index % 3 === 1 ? `page${index}` : `section${index}.list`;
    fs.writeFileSync(path.join(dir, `app/routes/${segment}.tsx`), `export default function Page${index}() {\n  return <p>Page ${index}</p>;\n}\n`);
  }
  await run(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production" },
  });
  return dir;
}

/** Builds the bare app and serves it with remix-serve on a free loopback port. */
export async function startBareRemix(nodeArgs: string[] = [], extraRoutes = 0): Promise<BareRemix> {
  const dir = await buildBareRemix(extraRoutes);
  const port = await freePort();
  // remix-serve has no SIGTERM handler; exiting through process.exit lets --cpu-prof write its profile.
  const onTerm = path.join(dir, "exit-on-sigterm.mjs");
  fs.writeFileSync(onTerm, 'process.once("SIGTERM", () => process.exit(0));\n');
  let log = "";
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "--import", pathToFileURL(onTerm).href, path.join(ROOT, "node_modules/@remix-run/serve/dist/cli.js"), "build/index.js"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (log += chunk));
  child.stderr?.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`remix-serve exited with ${child.exitCode}:\n${log}`);
    if (await fetch(`${url}/`).then((response) => response.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`remix-serve did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dir,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
