import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { migrateToLatest } from "../../db/migrator";

/**
 * Five years of a large lab's data, generated with set-based SQL (generate_series, one INSERT … SELECT
 * per table) in a migrated PostgreSQL database: clinics with Cyrillic and Latin names, e-mails and
 * phones, orders with their status history, patients with four files each (JSONB lists as the wizard
 * writes them), payments, file server queue entries, partners with their referrals and payouts, order
 * codes held for a year, client settings, and a backlog of abandoned drafts for the scheduled job.
 * "small" is the same lab with 200 orders. Deterministic apart from the random tails of the ids.
 *
 * Bump SCALE_GENERATOR_VERSION whenever the data changes, so kept databases are regenerated.
 */
export const SCALE_GENERATOR_VERSION = 2;

export type ScaleSize = "small" | "large";

export interface ScaleShape {
  /** Orders past the wizard (pending and later), over `years` years. */
  orders: number;
  /** Of them, created in the last 365 days (they hold their order codes). */
  lastYearOrders: number;
  years: number;
  clinics: number;
  /** Every n-th order belongs to the big clinic. */
  bigClinicEvery: number;
  partners: number;
  /** Clinics referred by the big partner (the big clinic among them), and by all partners. */
  bigPartnerClinics: number;
  referredClinics: number;
  /** File server queue entries; of them pending and failed (the newest). */
  queueEntries: number;
  queuePending: number;
  queueFailed: number;
  /**
   * Queue entries that uploads wrote for drafts, unpaid and cancelled orders: pending, never due
   * until the order is paid (ADR 092). Part of `queueEntries`' million at five years.
   */
  queueNeverDue: number;
  /** Files the storage walk found to be trash (storage_trash), over the order folders. */
  trash: number;
  /** Drafts untouched for more than 30 days (the job's backlog) and drafts in progress. */
  abandonedDrafts: number;
  recentDrafts: number;
}

export const SCALE_SHAPES: Record<ScaleSize, ScaleShape> = {
  large: {
    orders: 300_000,
    lastYearOrders: 48_000,
    years: 5,
    clinics: 3_000,
    bigClinicEvery: 51,
    partners: 500,
    bigPartnerClinics: 63,
    referredClinics: 970,
    queueEntries: 1_000_000,
    queuePending: 100,
    queueFailed: 40,
    queueNeverDue: 124_124,
    trash: 486_535,
    abandonedDrafts: 11_000,
    recentDrafts: 300,
  },
  small: {
    orders: 200,
    lastYearOrders: 60,
    years: 5,
    clinics: 20,
    bigClinicEvery: 5,
    partners: 5,
    bigPartnerClinics: 3,
    referredClinics: 10,
    queueEntries: 400,
    queuePending: 10,
    queueFailed: 4,
    queueNeverDue: 50,
    trash: 150,
    abandonedDrafts: 20,
    recentDrafts: 3,
  },
};

/**
 * SCALE_FRACTION (0 < f ≤ 1) makes the large data set that fraction of five years of the large lab,
 * every count scaled alike (a busy machine where the whole takes too long); 1 by default.
 */
export const SCALE_FRACTION = Math.min(1, Math.max(0.001, Number(process.env.SCALE_FRACTION ?? "1") || 1));
if (SCALE_FRACTION < 1) {
  const large = SCALE_SHAPES.large as unknown as Record<string, number>;
  for (const key of Object.keys(large)) if (key !== "years" && key !== "bigClinicEvery" && key !== "queuePending" && key !== "queueFailed") large[key] = Math.max(1, Math.round(large[key]! * SCALE_FRACTION));
}

/** People the benchmark signs in as, and things its searches look for. The same in both sizes. */
export const SCALE_PEOPLE = {
  /** The clinic with the most orders (every `bigClinicEvery`-th order). */
  bigClinicEmail: "zakaz@dentalprofi.ru",
  bigClinicName: "Соколова Марина Андреевна",
  bigClinicPhone: "+7 495 120-45-67",
  /** The partner who referred the big clinic and the most others. */
  bigPartnerEmail: "ortho.club@gmail.com",
  bigPartnerCode: "ORTHOC",
} as const;

export interface ScaleCounts {
  orders: number;
  drafts: number;
  patients: number;
  files: number;
  statusHistory: number;
  queueEntries: number;
  queuePending: number;
  payments: number;
  partners: number;
  referrals: number;
  orderCodes: number;
  clientSettings: number;
  bigClinicOrders: number;
  bigPartnerOrders: number;
}

export interface ScaleReport {
  size: ScaleSize;
  version: number;
  seconds: number;
  counts: ScaleCounts;
  /** Seconds per step, in order. */
  steps: Array<{ step: string; seconds: number }>;
}

const RU_FEMALE_LAST = ["Иванова", "Смирнова", "Кузнецова", "Попова", "Васильева", "Петрова", "Соколова", "Михайлова", "Новикова", "Фёдорова", "Морозова", "Волкова", "Алексеева", "Лебедева", "Семёнова", "Егорова", "Павлова", "Козлова", "Степанова", "Николаева", "Орлова", "Андреева", "Макарова", "Никитина", "Захарова", "Зайцева", "Соловьёва", "Борисова", "Яковлева", "Григорьева", "Романова", "Воробьёва", "Сергеева", "Кузьмина", "Фролова", "Гарифуллина", "Садыкова", "Ахмедова", "Тимофеева", "Белова"];
const RU_FEMALE_FIRST = ["Анна", "Мария", "Елена", "Ольга", "Наталья", "Екатерина", "Татьяна", "Ирина", "Светлана", "Юлия", "Анастасия", "Дарья", "Алия", "Марина", "Ксения", "Виктория", "Полина", "Алёна", "Софья", "Людмила"];
const RU_MALE_LAST = ["Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов", "Николаев", "Орлов", "Андреев", "Макаров", "Никитин", "Захаров", "Зайцев", "Соловьёв", "Борисов", "Яковлев", "Григорьев", "Романов", "Воробьёв", "Сергеев", "Кузьмин", "Фролов", "Хабибуллин", "Садыков", "Ахмедов", "Тимофеев", "Белов"];
const RU_MALE_FIRST = ["Александр", "Дмитрий", "Максим", "Сергей", "Андрей", "Алексей", "Артём", "Илья", "Кирилл", "Михаил", "Никита", "Матвей", "Роман", "Егор", "Арсений", "Иван", "Денис", "Евгений", "Тимур", "Павел"];
const RU_PATRONYMIC_F = ["Александровна", "Дмитриевна", "Сергеевна", "Андреевна", "Алексеевна", "Викторовна", "Николаевна", "Игоревна", "Петровна", "Ринатовна"];
const RU_PATRONYMIC_M = ["Александрович", "Дмитриевич", "Сергеевич", "Андреевич", "Алексеевич", "Викторович", "Николаевич", "Игоревич", "Петрович", "Ринатович"];
const LATIN_LAST = ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Huber", "Hoffmann", "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau", "Kowalski", "Nowak", "Smith", "Johnson", "Brown", "Novak"];
const LATIN_FIRST = ["Anna", "Maria", "Sophie", "Laura", "Julia", "Lena", "Giulia", "Chiara", "Lucía", "Carmen", "Camille", "Léa", "Emma", "Paul", "Lukas", "Jonas", "Marco", "Luca", "Alessandro", "Javier", "Pablo", "Hugo", "Louis", "Thomas", "Jakub", "Piotr", "James", "Oliver", "Felix", "Matteo"];
const RU_CITIES = ["Москва", "Санкт-Петербург", "Казань", "Екатеринбург", "Новосибирск", "Нижний Новгород", "Самара", "Краснодар", "Ростов-на-Дону", "Уфа", "Пермь", "Воронеж", "Тюмень", "Калининград", "Ярославль"];
const RU_STREETS = ["ул. Ленина", "ул. Профсоюзная", "Невский пр-т", "ул. Баумана", "Ленинский пр-т", "ул. Малая Садовая", "ул. Гагарина", "ул. Мира", "ул. Советская", "пр-т Победы", "ул. Пушкина", "ул. Садовая"];
const RU_CLINIC_WORDS = ["ulybka", "smile", "dentalux", "ortoline", "belaya-roza", "zubnoy-mir", "praktika", "denta-prime", "stoma-lux", "ortodont-pro", "kazan-dent", "novadent", "medident", "32zuba", "dentalart"];
const RU_DOMAINS = ["mail.ru", "yandex.ru", "gmail.com", "bk.ru", "inbox.ru", "list.ru"];
const INTL_CITIES = ["Mariahilfer Straße 45, 1060 Wien", "Friedrichstraße 120, 10117 Berlin", "Via Roma 18, 20121 Milano", "Calle Mayor 22, 28013 Madrid", "12 rue de Rivoli, 75004 Paris", "Bahnhofstrasse 7, 8001 Zürich", "ul. Marszałkowska 84, 00-514 Warszawa", "Karlova 14, 110 00 Praha"];
const INTL_CLINIC_WORDS = ["zahnarzt", "dentalstudio", "clinica-dentale", "clinica-dental", "cabinet-dentaire", "ortho-praxis", "smileclinic", "dentocare"];
const INTL_DOMAINS = ["gmail.com", "web.de", "libero.it", "orange.fr", "gmx.at", "outlook.com", "t-online.de", "wp.pl"];
const INTL_PHONE_PREFIX = ["+43 1", "+49 30", "+39 02", "+34 91", "+33 1", "+41 44", "+48 22", "+420 2"];
const INTL_LANGUAGE = ["de", "de", "it", "es", "fr", "de", "en", "en"];
const ERRORS = ["Connection reset by peer", "Timed out while waiting for handshake", "No space left on device", "Permission denied"];

/** A PostgreSQL text[] literal of trusted constants. */
function textArray(values: readonly string[]): string {
  return `array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(",")}]::text[]`;
}

/** `arr[1 + (expr mod len)]` for one of the arrays above. */
function pick(values: readonly string[], expr: string): string {
  return `(${textArray(values)})[1 + ((${expr}) % ${values.length})]`;
}

const PAID_SET = `('paid','processing','shipped','completed')`;
/** A spread-out non-negative hash of an integer expression (Knuth's multiplicative hash). */
const hash = (expr: string, salt = 0) => `(((${expr})::bigint * 2654435761 + ${salt}) % 4294967296)`;

function statements(shape: ScaleShape): Array<[string, string]> {
  const drafts = shape.abandonedDrafts + shape.recentDrafts;
  const total = shape.orders + drafts;
  const older = shape.orders - shape.lastYearOrders;
  const steps: Array<[string, string]> = [];
  const step = (name: string, sql: string) => steps.push([name, sql]);

  step(
    "clinics",
    `create temp table scale_clinics as
     select k, intl, female,
       case when k = 1 then '${SCALE_PEOPLE.bigClinicEmail}'
            when intl then ${pick(INTL_CLINIC_WORDS, hash("k", 1))} || '.' || k || '@' || ${pick(INTL_DOMAINS, hash("k", 2))}
            else ${pick(RU_CLINIC_WORDS, hash("k", 1))} || '-' || k || '@' || ${pick(RU_DOMAINS, hash("k", 2))} end as email,
       case when k = 1 then '${SCALE_PEOPLE.bigClinicName}'
            when intl then 'Dr. ' || ${pick(LATIN_FIRST, hash("k", 3))} || ' ' || ${pick(LATIN_LAST, hash("k", 4))}
            when female then ${pick(RU_FEMALE_LAST, hash("k", 4))} || ' ' || ${pick(RU_FEMALE_FIRST, hash("k", 3))} || ' ' || ${pick(RU_PATRONYMIC_F, hash("k", 5))}
            else ${pick(RU_MALE_LAST, hash("k", 4))} || ' ' || ${pick(RU_MALE_FIRST, hash("k", 3))} || ' ' || ${pick(RU_PATRONYMIC_M, hash("k", 5))} end as full_name,
       case when k = 1 then '${SCALE_PEOPLE.bigClinicPhone}'
            when intl then ${pick(INTL_PHONE_PREFIX, "k")} || ' ' || lpad((${hash("k", 6)} % 10000000)::text, 7, '0')
            else '+7 9' || lpad((${hash("k", 6)} % 100)::text, 2, '0') || ' ' || lpad((${hash("k", 7)} % 1000)::text, 3, '0') || '-'
                 || lpad((${hash("k", 8)} % 100)::text, 2, '0') || '-' || lpad((k % 100)::text, 2, '0') end as phone,
       case when intl then ${pick(INTL_CITIES, "k")}
            else ${pick(RU_CITIES, hash("k", 9))} || ', ' || ${pick(RU_STREETS, hash("k", 10))} || ', д. ' || (1 + k % 120) || ', офис ' || (1 + k % 40) end as address,
       case when intl then ${pick(INTL_LANGUAGE, "k")} else 'ru' end as language
     from (select k, k % 7 = 3 as intl, ${hash("k", 11)} % 2 = 0 as female from generate_series(1, ${shape.clinics}) k) c`,
  );
  step("clinics index", `create unique index on scale_clinics(k)`);

  // Partner j = 1 is the big partner; referred clinics 1..bigPartnerClinics are theirs, the rest spread.
  step(
    "referral plan",
    `create temp table scale_referrals as
     select k, case when k <= ${shape.bigPartnerClinics} then 1 else 2 + (k % ${Math.max(1, shape.partners - 1)}) end as j
     from generate_series(1, ${shape.referredClinics}) k`,
  );

  // One row per order and draft: n ≤ orders are past the wizard, the rest drafts.
  step(
    "order plan",
    `create temp table scale_orders as
     select n, k, created_at, status, draft,
       ${hash("n", 21)} % 1000 as h
     from (
       select n, n > ${shape.orders} as draft,
         case when n <= ${shape.orders} and n % ${shape.bigClinicEvery} = 0 then 1
              else 2 + (${hash("n", 20)} % ${shape.clinics - 1}) end as k,
         case
           when n <= ${older} then now() - interval '365 days'
                - ((${older} - n + 0.5) / ${older}::numeric * ${(shape.years - 1) * 365} * interval '1 day')
           when n <= ${shape.orders} then now() - ((${shape.orders} - n + 0.5) / ${shape.lastYearOrders}::numeric * 364 * interval '1 day')
           when n <= ${shape.orders + shape.abandonedDrafts} then now() - interval '31 days' - ((n % 89) * interval '1 day') - ((n % 1440) * interval '1 minute')
           else now() - ((n % 20) * interval '1 day') - ((n % 1440) * interval '1 minute')
         end as created_at,
         null::text as status
       from generate_series(1, ${total}) n
     ) o`,
  );
  step(
    "order statuses",
    `update scale_orders set status = case
       when draft then 'draft'
       when h < 60 then 'cancelled'
       when created_at > now() - interval '2 days' then case when h < 400 then 'pending' when h < 700 then 'paid' else 'processing' end
       when created_at > now() - interval '10 days' then case when h < 500 then 'processing' else 'shipped' end
       when created_at > now() - interval '25 days' then case when h < 600 then 'shipped' else 'completed' end
       when h < 120 then 'pending'
       else 'completed' end`,
  );
  // Order codes: every order of the last 365 days holds its code, so those get distinct codes
  // (an odd multiplier is a permutation of 0..65535); older orders' codes were released and repeat.
  step(
    "order codes",
    `create temp table scale_ids as
     select n, code, (code || substr(gen_random_uuid()::text, 5))::uuid as id, holds
     from (
       select n, holds,
         lpad(to_hex(case when holds then (r * 40503 + 4099) % 65536 else (${hash("n", 30)} % 65536) end::int), 4, '0') as code
       from (select n, created_at > now() - interval '365 days' as holds,
                    row_number() over (partition by created_at > now() - interval '365 days' order by n) as r
               from scale_orders) ranked
     ) coded`,
  );
  step(
    "order plan ids",
    `create temp table scale_plan as
     select o.n, o.k, o.created_at, o.status, o.draft, o.h, i.id, i.code, i.holds,
       c.email, c.full_name, c.phone, c.address, c.language, c.intl,
       case when o.draft then 1 + o.n % 11 else 11 end as wizard_step,
       case when o.status in ${PAID_SET} then least(o.created_at + interval '1 hour', now()) end as paid_at,
       case when c.intl then 40000 + (o.h * 110) else 1200000 + (o.h * 2800) end as cost,
       r.j as partner
     from scale_orders o
     join scale_ids i using (n)
     join scale_clinics c using (k)
     left join scale_referrals r using (k)`,
  );
  step("order plan index", `create unique index on scale_plan(n)`);
  step("partners", `insert into partner_codes (id, code, user_email, user_name, contact_email, contact_phone, offer_accepted_at, reward_percentage, created_at)
     select gen_random_uuid(),
       pg_temp.partner_code(j),
       case when j = 1 then '${SCALE_PEOPLE.bigPartnerEmail}' else 'partner.' || j || '@' || ${pick(RU_DOMAINS, "j")} end,
       case when j % 5 = 0 then 'Dr. ' || ${pick(LATIN_FIRST, hash("j", 40))} || ' ' || ${pick(LATIN_LAST, hash("j", 41))}
            else ${pick(RU_MALE_LAST, hash("j", 41))} || ' ' || ${pick(RU_MALE_FIRST, hash("j", 40))} end,
       'partner.' || j || '@' || ${pick(RU_DOMAINS, "j")},
       '+7 916 ' || lpad((j % 1000)::text, 3, '0') || '-00-' || lpad((j % 100)::text, 2, '0'),
       now() - interval '5 years' + j * interval '1 hour', 10 + (j % 3) * 5, now() - interval '5 years' + j * interval '1 hour'
     from generate_series(1, ${shape.partners}) j`);
  step("partner ids", `create temp table scale_partners as select j, c.id from generate_series(1, ${shape.partners}) j join partner_codes c on c.code = pg_temp.partner_code(j)`);
  step(
    "orders",
    `insert into orders (id, code, status, market, currency, email, full_name, phone, address, additional_comments,
        material_type, cut_type, matrix_type, retainer_type, wizard_step, total_cost, discount_percentage, payment_id,
        tracking_number, partner_code_id, paid_at, created_at, updated_at, language)
     select p.id, p.code, p.status,
       case when p.intl then 'international' else 'domestic' end, case when p.intl then 'eur' else 'rub' end,
       case when p.draft and p.wizard_step <= 2 then null else p.email end,
       case when p.draft and p.wizard_step <= 3 then null else p.full_name end,
       case when p.draft and p.wizard_step <= 2 then null else p.phone end,
       case when p.draft and p.wizard_step <= 3 then null else p.address end,
       case when p.h % 9 = 0 then 'Срочно, пациент уезжает' end,
       case when p.h % 2 = 0 then 'single_layer' else 'three_layer' end,
       case when p.h % 3 = 0 then 'straight' else 'wavy' end,
       case when p.h % 4 = 0 then 'soft' else 'hard' end,
       case when p.h % 5 = 0 then 'premium' else 'standard' end,
       p.wizard_step,
       case when not p.draft then p.cost end,
       case when not p.draft and p.h % 10 = 0 then 5 end,
       case when p.paid_at is not null then 'pay_' || p.n end,
       case when p.status in ('shipped','completed') then case when p.intl then 'DHL' || (1000000000 + p.n) else 'RU' || lpad(p.n::text, 9, '0') || 'RU' end end,
       pc.id, p.paid_at, p.created_at,
       case p.status when 'completed' then p.created_at + interval '10 days' when 'shipped' then p.created_at + interval '3 days'
         when 'processing' then p.created_at + interval '1 day' when 'paid' then p.created_at + interval '1 hour'
         when 'pending' then p.created_at + interval '30 minutes' when 'cancelled' then p.created_at + interval '2 days' else p.created_at end,
       p.language
     from scale_plan p
     left join scale_partners pc on pc.j = p.partner
     order by p.n`,
  );
  step("orders: finished in the past", `update orders set updated_at = least(updated_at, now()) where updated_at > now()`);
  step(
    "order codes held",
    `insert into order_codes (code, order_id, reserved_at, release_after)
     select code, id, created_at, created_at + interval '365 days' from scale_plan where holds`,
  );
  step(
    "status history",
    `insert into order_status_history (order_id, from_status, to_status, actor, tracking_number, created_at, notified_at)
     select p.id, s.from_status, s.to_status,
       case s.who when 'c' then coalesce(p.email, 'anonymous browser') when 'p' then case when p.intl then 'stripe' else 'yookassa' end || ' pay_' || p.n
         else 'back-office password (91.210.45.17)' end,
       case when s.to_status = 'shipped' then o.tracking_number end,
       least(p.created_at + s.after, now()), least(p.created_at + s.after, now())
     from scale_plan p
     join orders o on o.id = p.id
     cross join lateral (values
       (0, null, 'draft', 'c', interval '0'),
       (1, 'draft', 'pending', 'c', interval '30 minutes'),
       (2, 'pending', 'paid', 'p', interval '1 hour'),
       (3, 'paid', 'processing', 's', interval '1 day'),
       (4, 'processing', 'shipped', 's', interval '3 days'),
       (5, 'shipped', 'completed', 's', interval '10 days'),
       (9, 'pending', 'cancelled', 's', interval '2 days')
     ) as s(rank, from_status, to_status, who, after)
     where s.rank = 0
        or (p.status <> 'draft' and s.rank = 1)
        or (p.status = 'cancelled' and s.rank = 9)
        or (p.status in ${PAID_SET} and s.rank between 2 and case p.status when 'paid' then 2 when 'processing' then 3 when 'shipped' then 4 else 5 end)
     order by p.n, s.rank`,
  );
  // Four files a patient: two matrices and two aligner steps (retainers skipped); drafts past step 4 have one patient.
  step(
    "patients",
    `insert into orders_patients (order_id, patient_name, folder_name, material_type, cut_type, matrix_type,
        matrix_files_info, aligner_files_info, retainer_files_info, skip_retainers, created_at, updated_at)
     select p.id, pt.name, p.code || '_' || pt.i,
       case when p.h % 2 = 0 then 'single_layer' else 'three_layer' end,
       case when p.h % 3 = 0 then 'straight' else 'wavy' end,
       case when p.h % 4 = 0 then 'soft' else 'hard' end,
       jsonb_build_array(pg_temp.f(p.id, p.code || '_' || pt.i, 'matrix', 0, pt.upper_m), pg_temp.f(p.id, p.code || '_' || pt.i, 'matrix', 1, pt.lower_m)),
       jsonb_build_array(pg_temp.f(p.id, p.code || '_' || pt.i, 'aligners', 2, pt.upper_a), pg_temp.f(p.id, p.code || '_' || pt.i, 'aligners', 3, pt.lower_a)),
       '[]'::jsonb, true,
       p.created_at + pt.i * interval '1 second', p.created_at + pt.i * interval '1 second'
     from scale_plan p
     cross join lateral (
       select i,
         case when p.intl then ${pick(LATIN_LAST, hash("p.n * 7 + i", 50))} || ' ' || ${pick(LATIN_FIRST, hash("p.n * 7 + i", 51))}
              when ${hash("p.n * 7 + i", 52)} % 2 = 0 then ${pick(RU_FEMALE_LAST, hash("p.n * 7 + i", 50))} || ' ' || ${pick(RU_FEMALE_FIRST, hash("p.n * 7 + i", 51))}
              else ${pick(RU_MALE_LAST, hash("p.n * 7 + i", 50))} || ' ' || ${pick(RU_MALE_FIRST, hash("p.n * 7 + i", 51))} end as name,
         case when p.intl then 'Maxilla.stl' else 'Верхняя челюсть.stl' end as upper_m,
         case when p.intl then 'Mandible.stl' else 'Нижняя челюсть.stl' end as lower_m,
         case when p.intl then 'Subsetup1_Upper.stl' else 'Шаг 01 верх.stl' end as upper_a,
         case when p.intl then 'Subsetup1_Lower.stl' else 'Шаг 01 низ.stl' end as lower_a
       from generate_series(1, case when p.draft then (case when p.wizard_step >= 4 then 1 else 0 end) else 1 + (p.h % 5) end) i
     ) pt
     order by p.n, pt.i`,
  );
  step("orders: current patient", `update orders o set current_patient_id = p.id from orders_patients p
     where p.order_id = o.id and o.status = 'draft' and o.wizard_step >= 4`);
  step(
    "payments",
    `insert into payments (order_id, order_code, provider, provider_payment_id, amount, currency, status, idempotence_key, created_at, updated_at)
     select p.id, p.code, case when p.intl then 'stripe' else 'yookassa' end, 'pay_' || p.n, p.cost,
       case when p.intl then 'eur' else 'rub' end, 'succeeded', 'scale-' || p.n, p.paid_at - interval '5 minutes', p.paid_at
     from scale_plan p where p.paid_at is not null order by p.n`,
  );
  // The queue holds the newest paid orders' files: the newest entries pending or failed, the rest delivered.
  step(
    "file server queue",
    `insert into ftp_uploads_queue (order_id, patient_id, file_path, original_name, destination_path, order_prefix, patient_name,
        file_type, file_size, status, error_message, attempts, last_attempt_at, next_attempt_at, created_at, completed_at)
     select q.order_id, q.patient_id, q.path, q.name, '/aligners/' || q.code || '/' || q.folder_name || '/' || q.type,
       q.code, q.patient_name, q.type, q.size,
       case when q.r <= ${shape.queuePending} then 'pending' when q.r <= ${shape.queuePending + shape.queueFailed} then 'failed' else 'completed' end,
       case when q.r > ${shape.queuePending} and q.r <= ${shape.queuePending + shape.queueFailed} then ${pick(ERRORS, "q.r")} end,
       case when q.r <= ${shape.queuePending} then 0 else 1 end,
       case when q.r > ${shape.queuePending} then q.created_at + interval '1 minute' end,
       q.created_at, q.created_at,
       case when q.r > ${shape.queuePending + shape.queueFailed} then q.created_at + interval '2 minutes' end
     from (
       select pt.order_id, pt.id as patient_id, pt.folder_name, pt.patient_name, pt.code, file ->> 'storagePath' as path,
         file ->> 'originalName' as name, (file ->> 'size')::bigint as size, t.type,
         pt.created_at + (t.ord * interval '1 second') as created_at,
         row_number() over (order by pt.created_at desc, pt.id, t.ord) as r
       from (
         select pt.*, o.code from orders_patients pt
         join orders o on o.id = pt.order_id and o.status in ${PAID_SET}
         order by pt.created_at desc limit ${Math.ceil(shape.queueEntries / 4)}
       ) pt
       cross join lateral (
         select 'matrix' as type, e.ordinality as ord, e.value as file from jsonb_array_elements(pt.matrix_files_info) with ordinality e
         union all
         select 'aligners', 2 + e.ordinality, e.value from jsonb_array_elements(pt.aligner_files_info) with ordinality e
       ) t(type, ord, file)
     ) q
     where q.r <= ${shape.queueEntries}
     order by q.r desc`,
  );
  // Uploads write an entry for every file, draft or not: the entries of drafts, unpaid and cancelled
  // orders wait, never due, until the order is paid (most never are).
  step(
    "file server queue: never due",
    `insert into ftp_uploads_queue (order_id, patient_id, file_path, original_name, destination_path, order_prefix, patient_name, file_type, file_size, created_at)
     select pt.order_id, pt.id, 'order_' || pt.order_id || '/' || pt.folder_name || '/matrix/nd_' || k || '.stl', 'Шаг ' || k || ' верх.stl',
       '/aligners/' || pt.code || '/' || pt.folder_name || '/matrix', pt.code, pt.patient_name, 'matrix', 1000000 + k, pt.created_at
     from (
       select pt.*, o.code, row_number() over (order by pt.created_at desc, pt.id) as r from orders_patients pt
       join orders o on o.id = pt.order_id and o.status in ('draft', 'pending', 'cancelled')
     ) pt
     cross join generate_series(1, 8) k
     where (pt.r - 1) * 8 + k <= ${shape.queueNeverDue}`,
  );
  // What the storage walk keeps as found trash: files no order lists, over order folders.
  step(
    "storage trash",
    `insert into storage_trash (key, folder, size, modified_at, reason, found_at)
     select 'order_' || o.id || '/trash_' || k || '.stl', 'order_' || o.id, 1000 + k, o.created_at,
       case when o.status = 'cancelled' then 'cancelled' when o.status = 'draft' then 'abandoned_draft' else 'unlisted' end, now()
     from (select id, status, created_at, row_number() over (order by id) as r from orders) o
     cross join generate_series(1, 10) k
     where (o.r - 1) * 10 + k <= ${shape.trash}`,
  );
  step(
    "referrals",
    `insert into partner_affiliates (partner_code_id, affiliate_email, first_order_id, created_at)
     select o.partner_code_id, o.email, (array_agg(o.id order by o.created_at))[1], min(o.created_at)
     from orders o join scale_clinics c on c.email = o.email
     where o.partner_code_id is not null
     group by o.partner_code_id, o.email`,
  );
  step(
    "payouts",
    `insert into partner_payouts (partner_code_id, amount, currency, period_year, period_quarter, note, created_by, paid_at)
     select pc.id, 100000 * (1 + q % 5), 'rub', extract(year from d)::int, extract(quarter from d)::int, 'Выплата за квартал', 'back-office', d
     from partner_codes pc
     cross join generate_series(1, 4) q
     cross join lateral (select now() - q * interval '3 months' as d) dd`,
  );
  step(
    "client settings",
    `insert into client_settings (email, currency, aligner_price, matrix_price, retainer_standard_price, retainer_premium_price,
        discount_percentage, personal_comment, notification_channel)
     select email, case when intl then 'eur' else 'rub' end,
       case when intl then 9000 else 350000 end, case when intl then 4000 else 150000 end,
       case when intl then 12000 else 500000 end, case when intl then 18000 else 750000 end,
       case when k % 6 = 0 then 10 end, case when k % 10 = 0 then 'Постоянный клиент, звонить перед отправкой' end,
       case when k % 9 = 0 then 'whatsapp' else 'email' end
     from scale_clinics where k % 2 = 1`,
  );
  step(
    "users",
    `insert into users (email, created_at, last_sign_in_at)
     select email, now() - interval '5 years', now() - (k % 60) * interval '1 day' from scale_clinics
     union all
     select user_email, created_at, now() - interval '3 days' from partner_codes`,
  );
  step("drop plan", `drop table scale_plan, scale_partners, scale_ids, scale_orders, scale_referrals, scale_clinics`);
  return steps;
}

/** The JSONB file entry the wizard writes (FileInfo), as a SQL function used while generating. */
const FILE_FUNCTION = `create or replace function pg_temp.f(order_id uuid, folder text, type text, idx int, name text) returns jsonb
  language sql immutable as $$
    select jsonb_build_object(
      'originalName', name,
      'storagePath', 'order_' || order_id || '/' || folder || '/' || type || '/' || idx || '_' || md5(name) || '.stl',
      'url', '/files/orders/order_' || order_id || '/' || folder || '/' || type || '/' || idx || '_' || md5(name) || '.stl',
      'type', 'model/stl',
      'size', 84 + 50 * (180000 + idx * 1000),
      'triangles', 180000 + idx * 1000)
  $$`;

/** Partner j's six-letter code (the big partner's for j = 1): distinct for distinct j. */
const PARTNER_CODE_FUNCTION = `create or replace function pg_temp.partner_code(j int) returns text
  language sql immutable as $$
    select case when j = 1 then '${SCALE_PEOPLE.bigPartnerCode}' else
      chr(65 + (x / 11881376) % 26) || chr(65 + (x / 456976) % 26) || chr(65 + (x / 17576) % 26)
      || chr(65 + (x / 676) % 26) || chr(65 + (x / 26) % 26) || chr(65 + x % 26) end
    from (select j * 7919 + 123457 as x) xx
  $$`;

/**
 * Fills the database at `databaseUrl` (empty, or fresh from the migrator) with the `size` data set:
 * migrates it to the latest schema, generates every table, analyzes, and notes the generator version
 * and time in the database's comment (see `scaleDatabaseComment`). `log` hears each step.
 */
export async function generateScaleData(databaseUrl: string, size: ScaleSize, log: (line: string) => void = () => {}): Promise<ScaleReport> {
  const shape = SCALE_SHAPES[size];
  const started = performance.now();
  const migrating = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }) });
  try {
    await migrateToLatest(migrating);
  } finally {
    await migrating.destroy();
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const steps: ScaleReport["steps"] = [];
  try {
    const existing = await client.query<{ n: string }>("select count(*) as n from orders");
    if (Number(existing.rows[0]!.n) > 0) throw new Error(`generateScaleData: ${databaseUrl} already holds orders`);
    await client.query("set synchronous_commit = off");
    await client.query("set work_mem = '256MB'");
    await client.query("set maintenance_work_mem = '512MB'");
    await client.query(FILE_FUNCTION);
    await client.query(PARTNER_CODE_FUNCTION);
    for (const [name, text] of statements(shape)) {
      const stepStarted = performance.now();
      await client.query(text);
      const seconds = (performance.now() - stepStarted) / 1000;
      steps.push({ step: name, seconds });
      log(`  ${name}: ${seconds.toFixed(1)} s`);
    }
    const stepStarted = performance.now();
    await client.query("vacuum (analyze)");
    steps.push({ step: "vacuum analyze", seconds: (performance.now() - stepStarted) / 1000 });
    log(`  vacuum analyze: ${steps.at(-1)!.seconds.toFixed(1)} s`);
    const counts = await countScaleData(client);
    const seconds = (performance.now() - started) / 1000;
    const database = (await client.query<{ name: string }>("select current_database() as name")).rows[0]!.name;
    await client.query(`comment on database ${pg.escapeIdentifier(database)} is ${pg.escapeLiteral(scaleDatabaseComment(size, seconds))}`);
    return { size, version: SCALE_GENERATOR_VERSION, seconds, counts, steps };
  } finally {
    await client.end();
  }
}

/** What a generated database says about itself: `scale-data v1 large 123.4 s`. */
export function scaleDatabaseComment(size: ScaleSize, seconds: number): string {
  return `scale-data v${SCALE_GENERATOR_VERSION} ${size} ${seconds.toFixed(1)} s`;
}

/** The size and generation time a database's comment records, if it was generated by this version. */
export function parseScaleDatabaseComment(comment: string | null | undefined): { size: ScaleSize; seconds: number } | null {
  const match = /^scale-data v(\d+) (small|large) ([\d.]+) s$/.exec(comment ?? "");
  if (!match || Number(match[1]) !== SCALE_GENERATOR_VERSION) return null;
  return { size: match[2] as ScaleSize, seconds: Number(match[3]) };
}

export async function countScaleData(client: pg.Client): Promise<ScaleCounts> {
  const { rows } = await client.query(`select
    (select count(*) from orders where status <> 'draft') as orders,
    (select count(*) from orders where status = 'draft') as drafts,
    (select count(*) from orders_patients) as patients,
    (select coalesce(sum(jsonb_array_length(matrix_files_info) + jsonb_array_length(aligner_files_info) + jsonb_array_length(retainer_files_info)), 0) from orders_patients) as files,
    (select count(*) from order_status_history) as status_history,
    (select count(*) from ftp_uploads_queue) as queue_entries,
    (select count(*) from ftp_uploads_queue where status = 'pending') as queue_pending,
    (select count(*) from payments) as payments,
    (select count(*) from partner_codes) as partners,
    (select count(*) from partner_affiliates) as referrals,
    (select count(*) from order_codes) as order_codes,
    (select count(*) from client_settings) as client_settings,
    (select count(*) from orders where email = '${SCALE_PEOPLE.bigClinicEmail}') as big_clinic_orders,
    (select count(*) from orders o join partner_codes c on c.id = o.partner_code_id where c.user_email = '${SCALE_PEOPLE.bigPartnerEmail}') as big_partner_orders`);
  const row = rows[0] as Record<string, string>;
  return {
    orders: Number(row.orders),
    drafts: Number(row.drafts),
    patients: Number(row.patients),
    files: Number(row.files),
    statusHistory: Number(row.status_history),
    queueEntries: Number(row.queue_entries),
    queuePending: Number(row.queue_pending),
    payments: Number(row.payments),
    partners: Number(row.partners),
    referrals: Number(row.referrals),
    orderCodes: Number(row.order_codes),
    clientSettings: Number(row.client_settings),
    bigClinicOrders: Number(row.big_clinic_orders),
    bigPartnerOrders: Number(row.big_partner_orders),
  };
}

/**
 * A database named `name` on the server of `serverUrl` holding the `size` data set of this generator
 * version: kept from an earlier run when its comment says so, otherwise (re)created and generated.
 * Returns its URL and whether it was generated now, with the generation time either way.
 */
export async function ensureScaleDatabase(
  serverUrl: string,
  name: string,
  size: ScaleSize,
  log: (line: string) => void = () => {},
): Promise<{ url: string; generated: boolean; seconds: number; report?: ScaleReport }> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      "select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1",
      [name],
    );
    const kept = rows.length ? parseScaleDatabaseComment(rows[0]!.comment) : null;
    if (kept && kept.size === size) return { url: url.toString(), generated: false, seconds: kept.seconds };
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  log(`generating the ${size} data set in ${name}`);
  const report = await generateScaleData(url.toString(), size, log);
  return { url: url.toString(), generated: true, seconds: report.seconds, report };
}
