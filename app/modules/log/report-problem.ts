/**
 * Where code that runs on both sides — the pages' translator — reports a developer's mistake, such
 * as a text key missing from the locale files (ADR 031). The server hands its logger in at start-up
 * (entry.server.tsx), so a report made while rendering a page is a log line with the request's id;
 * in the browser there is no logger, and the console is where a developer looks.
 */
type Report = (message: string) => void;

// The one console call of app/, server.mts and scripts/: the browser's stand-in for the logger.
// eslint-disable-next-line no-console -- the browser has no logger; this is its report
let report: Report = (message) => console.error(message);

/** On the server: reports go to the logger from now on. */
export function reportProblemsTo(logger: Report) {
  report = logger;
}

export function reportProblem(message: string) {
  report(message);
}
