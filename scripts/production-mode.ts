/**
 * `npm start` serves in production mode: express, React and Remix read NODE_ENV, and with it unset
 * express answered errors with its development page (the stack and the install paths; ADR 040).
 * `npm run dev` sets NODE_ENV=development itself, and a value already set always wins. Imported
 * right after ./load-env, before anything that reads the variable is loaded.
 */
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";
