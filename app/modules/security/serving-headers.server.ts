import { randomBytes } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import onHeaders from "on-headers";
import type { AppConfig } from "~/modules/config/config.server";

/**
 * The headers every answer carries (OWASP Secure Headers Project, ADR 031), set by helmet:
 *
 * - a Content-Security-Policy with a fresh nonce per request: only our own scripts and the inline
 *   ones Remix and the label pages write with that nonce run; forms and their redirects go only to
 *   this site and the payment providers' checkout pages;
 * - HSTS (a year, subdomains) in production only — a developer's http://localhost must keep working;
 * - `Cache-Control: private, no-store` on every answer that names no cache rule of its own;
 * - Cross-Origin-Opener-Policy, a Permissions-Policy switching off devices the portal never uses,
 *   nosniff, a referrer policy that sends no paths to other sites.
 */

/** Device and sensor features no page of the portal uses; every name here is one Chromium knows. */
const PERMISSIONS_POLICY = ["camera", "microphone", "geolocation", "payment", "usb", "midi", "magnetometer", "gyroscope", "accelerometer", "display-capture"]
  .map((feature) => `${feature}=()`)
  .join(", ");

export function cspNonce(res: Response): string {
  return res.locals.cspNonce as string;
}

export function servingHeaders(config: AppConfig): RequestHandler[] {
  const production = config.env === "production";
  const nonce = (_req: unknown, res: unknown) => `'nonce-${cspNonce(res as Response)}'`;
  return [
    (_req: Request, res: Response, next: NextFunction) => {
      res.locals.cspNonce = randomBytes(16).toString("base64");
      onHeaders(res, function (this: Response) {
        // A 304 sends no body: the browser keeps the stored page with the policy (and nonce) it came with.
        if (this.statusCode === 304) this.removeHeader("Content-Security-Policy");
        // A route's own policy (the clients' SVG logos: nothing may run in them) replaces the pages' one.
        const policies = this.getHeader("Content-Security-Policy");
        if (Array.isArray(policies)) this.setHeader("Content-Security-Policy", policies[policies.length - 1]!);
        // Private unless the answer says otherwise: the next person at a shared clinic or packing-room
        // computer must not get a page back from the cache. Public pages (entry.server), fingerprinted
        // assets and the texts say so themselves.
        if (!this.hasHeader("Cache-Control")) this.setHeader("Cache-Control", "private, no-store");
      });
      next();
    },
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", nonce],
          // <style> elements need the nonce; style="" attributes (progress bars, the preview's size) are allowed.
          styleSrc: ["'self'", nonce],
          styleSrcAttr: ["'unsafe-inline'"],
          // data: for the inline SVG drawings, blob: for the 3D preview's screenshots of a model.
          imgSrc: ["'self'", "data:", "blob:"],
          fontSrc: ["'self'"],
          mediaSrc: ["'self'"],
          // Uploads (plain and resumable) and live status go to this site only; files reach S3 from the server.
          connectSrc: ["'self'"],
          workerSrc: ["'self'", "blob:"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'", ...config.payments.checkoutOrigins],
          ...(production ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginOpenerPolicy: { policy: "same-origin" },
      // Label logos and downloads are fetched by our own pages only.
      crossOriginResourcePolicy: { policy: "same-origin" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      xFrameOptions: { action: "deny" },
    }),
    (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
      next();
    },
  ];
}
