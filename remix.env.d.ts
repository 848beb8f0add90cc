/// <reference types="@remix-run/dev" />

import "@remix-run/node";
import type { AppLoadContext as Context } from "~/modules/http/request.server";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext extends Context {}
}
