/// <reference types="@remix-run/dev" />

import "@remix-run/node";
import type { LoadContext } from "~/modules/http/request/request-context.server";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext extends LoadContext {}
}
