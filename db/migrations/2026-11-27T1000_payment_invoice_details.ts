import { type Kysely, sql } from "kysely";

// Frozen in time. What the payment provider reports about the payer of a succeeded payment, for the
// order's documents (ADR 024): the clinic's VAT number and business name given at checkout, and the
// provider's invoice.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments add column customer_vat_number text, add column customer_business_name text, add column invoice_id text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table payments drop column if exists customer_vat_number, drop column if exists customer_business_name, drop column if exists invoice_id`.execute(db);
}
