import { sql } from "kysely";
import { openDatabase } from "../../app/modules/db/db.server";
import { migrateToLatest } from "../../db/migrator";
import { seedDemoData } from "../../app/modules/demo/seed.server";

/** A fresh `aligner_e2e` database with the demo data, for the browser journeys on PostgreSQL. */
const target = new URL(process.env.DATABASE_URL!);
const name = target.pathname.slice(1);
const admin = new URL(target);
admin.pathname = "/postgres";

const server = await openDatabase({ kind: "postgres", url: admin.toString() }, { poolSize: 1 });
await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
await sql`create database ${sql.id(name)}`.execute(server);
await server.destroy();

const db = await openDatabase({ kind: "postgres", url: target.toString() }, { poolSize: 2 });
await migrateToLatest(db);
const summary = await seedDemoData(db);
console.log(`e2e database ${name} ready:`, summary.counts ?? summary);
await db.destroy();
