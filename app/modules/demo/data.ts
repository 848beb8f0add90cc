import type { Currency, MarketColumn, NotificationChannel } from "~db/schema";
import data from "./data.json";

/**
 * The demo's reference data, kept as plain data in data.json: clinics with their conditions, partners
 * with their referred clinics and payouts, translation overrides, names and comments, and the order
 * plan — every status, and each path through the state machine that leads to it. Drafts include three
 * without patients (hidden as "empty orders" by default); KAZDOC's second clinic was referred but has
 * not ordered yet.
 */

export interface DemoClient {
  email: string;
  fullName: string;
  phone: string;
  address: string;
  market: MarketColumn;
  currency: Currency;
  settings: {
    currency: Currency;
    aligner_price?: number;
    aligner_single_layer_price?: number;
    aligner_three_layer_price?: number;
    matrix_price?: number;
    retainer_standard_price?: number;
    retainer_premium_price?: number;
    discount_percentage?: number;
    personal_comment?: string;
    notification_channel: NotificationChannel;
  };
}

export type Path =
  | "draft"
  | "returned" // pending → draft (customer went back to edit; payment attempt cancelled)
  | "pending"
  | "paid"
  | "paid_retry" // a failed payment attempt before the successful one
  | "processing"
  | "shipped"
  | "completed_shipped"
  | "completed_paid"
  | "completed_processing"
  | "cancelled_draft"
  | "cancelled_pending"
  | "cancelled_paid"
  | "cancelled_processing";

export type QueuePlan = "auto" | "uploading" | "stale_lease" | "failed_retry" | "failed_exhausted" | "partial";

export interface PlannedOrder {
  /** An index into `clients`. */
  client: number | null;
  path: Path;
  daysAgo: number;
  patients: number;
  step?: number;
  queue?: QueuePlan;
}

export interface DemoPartner {
  code: string;
  userEmail: string;
  userName: string;
  contactEmail: string;
  contactPhone: string;
  reward: number;
  affiliates: string[];
  payoutShare: number;
  payoutNote: string | null;
}

export interface DemoData {
  clients: DemoClient[];
  partners: DemoPartner[];
  translations: Array<{ original_text: string; translated_text: string; target_language: string }>;
  patientNames: string[];
  internationalPatients: string[];
  deliveryComments: Array<string | null>;
  orderComments: Array<string | null>;
  patientComments: Array<string | null>;
  cancelNotes: Record<"draft" | "pending" | "paid" | "processing", string>;
  queueErrors: string[];
  plan: PlannedOrder[];
}

export const DEMO = data as DemoData;

/** The demo staff users; the admin, written last, marks a finished seed. */
export const DEMO_ADMIN_EMAIL = "admin@aligner.local";
export const DEMO_MANAGER_EMAIL = "manager@aligner.local";
