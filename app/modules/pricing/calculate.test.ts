import { describe, expect, it } from "vitest";
import { linesTotal } from "~/modules/payments/provider";
import {
  appliedDiscount,
  calculateOrderPrice,
  discountHundredths,
  isGoodsLine,
  type PatientPriceInput,
  type PersonalConditions,
  type PriceInput,
  type PriceLineKind,
} from "./calculate";
import { LANGUAGES, type Language } from "~/modules/i18n/languages";
import { resources } from "~/modules/i18n/resources.server";
import { createTranslator } from "~/modules/i18n/translate";
import { lineText, paymentDescription } from "./line-texts";
import { type PaymentLine, paymentLines } from "./payment-lines";
import { formatPriceSetAmount, PRICE_SETS } from "./price-sets";

/** The locale files' texts of a language; a missing key fails the test. */
const texts = (language: Language) =>
  createTranslator(resources[language].common, (key) => {
    throw new Error(`Missing translation: ${key} (${language})`);
  }, language);

// Base sets (minor units): rub single 90000, three 100000, matrix 100000, retainer 100000,
// delivery 150000, minimum 1000000; eur single 1390, three 1490, matrix 1490, retainer 1490,
// delivery 1500, minimum 15000.

const patient = (
  id: string,
  name: string,
  materialType: PatientPriceInput["materialType"],
  matrixType: PatientPriceInput["matrixType"],
  alignerFiles: number,
  matrixFiles = 0,
  retainerFiles = 0
): PatientPriceInput => ({
  id,
  name,
  materialType,
  matrixType,
  alignerFiles,
  matrixFiles,
  retainerFiles,
});

const conditions = (
  overrides: Partial<PersonalConditions>
): PersonalConditions => ({
  aligner_price: null,
  aligner_single_layer_price: null,
  aligner_three_layer_price: null,
  matrix_price: null,
  retainer_standard_price: null,
  discount_percentage: null,
  personal_comment: null,
  currency: "rub",
  ...overrides,
});

type Line = [
  kind: PriceLineKind,
  quantity: number,
  unitPrice: number,
  amount: number
];
type Pay = [description: string, quantity: number, price: number];

interface Case {
  name: string;
  input: PriceInput;
  /** [singleLayer, threeLayer, matrix, retainer, delivery] */
  unit?: [number, number, number, number, number];
  lines: Line[];
  goods: number;
  percent: number;
  discount: number;
  fee: number;
  total: number;
  note?: string | null;
  payment?: { language: Language; lines: Pay[] };
}

const DELIVERY_RUB: Line = ["delivery", 1, 150_000, 150_000];
const DELIVERY_EUR: Line = ["delivery", 1, 1500, 1500];

const CASES: Case[] = [
  {
    // 10 × 90000 = 900000; + 150000 = 1050000 ≥ 1000000 → no fee.
    name: "rub, no conditions, single-layer",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Иванов И.", "single_layer", "hard", 10)],
    },
    unit: [90_000, 100_000, 100_000, 100_000, 150_000],
    lines: [["aligners_single", 10, 90_000, 900_000], DELIVERY_RUB],
    goods: 900_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 1_050_000,
    note: null,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 1-слойные для Иванов И.", 10, 90_000],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 10 × 100000 + 2 × 100000 + 1 × 100000 = 1300000; + 150000 = 1450000.
    name: "rub, no conditions, three-layer with hard matrices and a retainer",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Петров", "three_layer", "hard", 10, 2, 1)],
    },
    lines: [
      ["aligners_three", 10, 100_000, 1_000_000],
      ["matrices_hard", 2, 100_000, 200_000],
      ["retainers", 1, 100_000, 100_000],
      DELIVERY_RUB,
    ],
    goods: 1_300_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 1_450_000,
  },
  {
    // 10 × 1390 = 13900; + 1500 = 15400 ≥ 15000.
    name: "eur, no conditions, single-layer",
    input: {
      currency: "eur",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Anna", "single_layer", "hard", 10)],
    },
    unit: [1390, 1490, 1490, 1490, 1500],
    lines: [["aligners_single", 10, 1390, 13_900], DELIVERY_EUR],
    goods: 13_900,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 15_400,
    payment: {
      language: "en",
      lines: [
        ["Single-layer aligners for Anna", 10, 1390],
        ["Packaging and delivery", 1, 1500],
      ],
    },
  },
  {
    // 5 × 1490 = 7450; 3 × 1490 = 4470; goods 11920; + 1500 = 13420 < 15000 → fee 1580, total 15000.
    name: "eur, three-layer with soft matrices, topped up to the minimum",
    input: {
      currency: "eur",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Ben", "three_layer", "soft", 5, 3)],
    },
    lines: [
      ["aligners_three", 5, 1490, 7450],
      ["matrices_soft", 3, 1490, 4470],
      DELIVERY_EUR,
      ["service_fee", 1, 1580, 1580],
    ],
    goods: 11_920,
    percent: 0,
    discount: 0,
    fee: 1580,
    total: 15_000,
    payment: {
      language: "en",
      lines: [
        ["Three-layer aligners for Ben", 5, 1490],
        ["Soft matrices for Ben", 3, 1490],
        ["Packaging and delivery", 1, 1500],
        ["Service fee", 1, 1580],
      ],
    },
  },
  {
    // 12 × 80000 = 960000; 4 × 70000 = 280000; 2 × 60000 = 120000; goods 1360000; + 150000 = 1510000.
    name: "rub, personal prices for every item",
    input: {
      currency: "rub",
      conditions: conditions({
        aligner_single_layer_price: 80_000,
        aligner_three_layer_price: 95_000,
        matrix_price: 70_000,
        retainer_standard_price: 60_000,
      }),
      isNewCustomer: false,
      patients: [patient("p1", "Клиника", "single_layer", "soft", 12, 4, 2)],
    },
    unit: [80_000, 95_000, 70_000, 60_000, 150_000],
    lines: [
      ["aligners_single", 12, 80_000, 960_000],
      ["matrices_soft", 4, 70_000, 280_000],
      ["retainers", 2, 60_000, 120_000],
      DELIVERY_RUB,
    ],
    goods: 1_360_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 1_510_000,
  },
  {
    // General 85000 for both materials: 10 × 85000 + 10 × 85000 = 1700000; + 150000 = 1850000.
    name: "rub, general aligner price is the fallback for both materials",
    input: {
      currency: "rub",
      conditions: conditions({ aligner_price: 85_000 }),
      isNewCustomer: false,
      patients: [
        patient("p1", "A", "three_layer", null, 10),
        patient("p2", "B", "single_layer", null, 10),
      ],
    },
    unit: [85_000, 85_000, 100_000, 100_000, 150_000],
    lines: [
      ["aligners_three", 10, 85_000, 850_000],
      ["aligners_single", 10, 85_000, 850_000],
      DELIVERY_RUB,
    ],
    goods: 1_700_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 1_850_000,
  },
  {
    // Three-layer 95000 beats general 85000; single-layer falls back to 85000.
    // 10 × 95000 = 950000; 10 × 85000 = 850000; goods 1800000; + 150000 = 1950000.
    name: "rub, three-layer specific price beats the general aligner price",
    input: {
      currency: "rub",
      conditions: conditions({
        aligner_price: 85_000,
        aligner_three_layer_price: 95_000,
      }),
      isNewCustomer: false,
      patients: [
        patient("p1", "A", "three_layer", null, 10),
        patient("p2", "B", "single_layer", null, 10),
      ],
    },
    unit: [85_000, 95_000, 100_000, 100_000, 150_000],
    lines: [
      ["aligners_three", 10, 95_000, 950_000],
      ["aligners_single", 10, 85_000, 850_000],
      DELIVERY_RUB,
    ],
    goods: 1_800_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 1_950_000,
  },
  {
    // Single-layer 1200 personal, three-layer base 1490: 10 × 1200 = 12000; 5 × 1490 = 7450;
    // goods 19450; + 1500 = 20950.
    name: "eur, single-layer specific price; three-layer keeps the base",
    input: {
      currency: "eur",
      conditions: conditions({
        currency: "eur",
        aligner_single_layer_price: 1200,
      }),
      isNewCustomer: false,
      patients: [
        patient("p1", "A", "single_layer", "hard", 10),
        patient("p2", "B", "three_layer", "hard", 5),
      ],
    },
    unit: [1200, 1490, 1490, 1490, 1500],
    lines: [
      ["aligners_single", 10, 1200, 12_000],
      ["aligners_three", 5, 1490, 7450],
      DELIVERY_EUR,
    ],
    goods: 19_450,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 20_950,
  },
  {
    // Personal 0 is a real price: 10 × 0 + 1 × 0 = 0; 0 + 150000 = 150000 → fee 850000, total 1000000.
    name: "rub, zero personal prices are prices of 0",
    input: {
      currency: "rub",
      conditions: conditions({
        aligner_single_layer_price: 0,
        retainer_standard_price: 0,
      }),
      isNewCustomer: false,
      patients: [patient("p1", "Free", "single_layer", null, 10, 0, 1)],
    },
    unit: [0, 100_000, 100_000, 0, 150_000],
    lines: [
      ["aligners_single", 10, 0, 0],
      ["retainers", 1, 0, 0],
      DELIVERY_RUB,
      ["service_fee", 1, 850_000, 850_000],
    ],
    goods: 0,
    percent: 0,
    discount: 0,
    fee: 850_000,
    total: 1_000_000,
    payment: {
      language: "ru",
      lines: [
        ["Упаковка и доставка", 1, 150_000],
        ["Сервисный сбор", 1, 850_000],
      ],
    },
  },
  {
    // General 0 → single-layer 0; three-layer 50000 specific. 10 × 0 + 10 × 50000 = 500000;
    // + 150000 = 650000 → fee 350000, total 1000000.
    name: "rub, zero general aligner price with a three-layer specific price",
    input: {
      currency: "rub",
      conditions: conditions({
        aligner_price: 0,
        aligner_three_layer_price: 50_000,
      }),
      isNewCustomer: false,
      patients: [
        patient("p1", "A", "single_layer", null, 10),
        patient("p2", "B", "three_layer", null, 10),
      ],
    },
    unit: [0, 50_000, 100_000, 100_000, 150_000],
    lines: [
      ["aligners_single", 10, 0, 0],
      ["aligners_three", 10, 50_000, 500_000],
      DELIVERY_RUB,
      ["service_fee", 1, 350_000, 350_000],
    ],
    goods: 500_000,
    percent: 0,
    discount: 0,
    fee: 350_000,
    total: 1_000_000,
  },
  {
    // 20 × 90000 = 1800000; 3 % = 54000; 1800000 − 54000 + 150000 = 1896000.
    // Receipt: 1746000 / 20 = 87300 per aligner.
    name: "rub, new customer without conditions gets 3 %",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: true,
      patients: [patient("p1", "Новый", "single_layer", "hard", 20)],
    },
    lines: [["aligners_single", 20, 90_000, 1_800_000], DELIVERY_RUB],
    goods: 1_800_000,
    percent: 3,
    discount: 54_000,
    fee: 0,
    total: 1_896_000,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 1-слойные для Новый", 20, 87_300],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 12 × 1490 = 17880; 3 % = 536.4 → 536; 17880 − 536 + 1500 = 18844.
    // Receipt: 17344 = 12 × 1445 + 4 → 11 × 1445 and 1 × 1449.
    name: "eur, new customer without conditions, fractional cent rounds down",
    input: {
      currency: "eur",
      conditions: null,
      isNewCustomer: true,
      patients: [patient("p1", "Neu", "three_layer", "hard", 12)],
    },
    lines: [["aligners_three", 12, 1490, 17_880], DELIVERY_EUR],
    goods: 17_880,
    percent: 3,
    discount: 536,
    fee: 0,
    total: 18_844,
    payment: {
      language: "en",
      lines: [
        ["Three-layer aligners for Neu", 11, 1445],
        ["Three-layer aligners for Neu", 1, 1449],
        ["Packaging and delivery", 1, 1500],
      ],
    },
  },
  {
    // 10 + 3 = 13 %; 15 × 100000 = 1500000; 13 % = 195000; 1500000 − 195000 + 150000 = 1455000.
    // Receipt: 1305000 / 15 = 87000.
    name: "rub, new customer with a 10 % discount gets 13 %",
    input: {
      currency: "rub",
      conditions: conditions({ discount_percentage: "10.00" }),
      isNewCustomer: true,
      patients: [patient("p1", "Клиент", "three_layer", "hard", 15)],
    },
    lines: [["aligners_three", 15, 100_000, 1_500_000], DELIVERY_RUB],
    goods: 1_500_000,
    percent: 13,
    discount: 195_000,
    fee: 0,
    total: 1_455_000,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 3-слойные для Клиент", 15, 87_000],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 7.5 + 3 = 10.5 %; 11 × 1390 = 15290; 2 × 1490 = 2980; goods 18270.
    // 18270 × 10.5 % = 1918.35 → 1918; 18270 − 1918 + 1500 = 17852.
    // Spread 1918: 15290 × 1918 / 18270 = 1605 rem 2870; 2980 × 1918 / 18270 = 312 rem 15400;
    // 1605 + 312 = 1917, leftover 1 → retainers (larger remainder) → 1605 and 313.
    // Aligners 15290 − 1605 = 13685 = 11 × 1244 + 1 → 10 × 1244, 1 × 1245.
    // Retainers 2980 − 313 = 2667 = 2 × 1333 + 1 → 1 × 1333, 1 × 1334.
    name: "eur, new customer with 7.5 % gets 10.5 %, spread by largest remainder",
    input: {
      currency: "eur",
      conditions: conditions({ currency: "eur", discount_percentage: "7.50" }),
      isNewCustomer: true,
      patients: [patient("p1", "Clara", "single_layer", "hard", 11, 0, 2)],
    },
    lines: [
      ["aligners_single", 11, 1390, 15_290],
      ["retainers", 2, 1490, 2980],
      DELIVERY_EUR,
    ],
    goods: 18_270,
    percent: 10.5,
    discount: 1918,
    fee: 0,
    total: 17_852,
    payment: {
      language: "en",
      lines: [
        ["Single-layer aligners for Clara", 10, 1244],
        ["Single-layer aligners for Clara", 1, 1245],
        ["Retainers for Clara", 1, 1333],
        ["Retainers for Clara", 1, 1334],
        ["Packaging and delivery", 1, 1500],
      ],
    },
  },
  {
    // Not new: only the 10 %. 12 × 90000 = 1080000; 10 % = 108000; 1080000 − 108000 + 150000 = 1122000.
    // Receipt: 972000 / 12 = 81000.
    name: "rub, returning customer with 10 % gets exactly 10 %",
    input: {
      currency: "rub",
      conditions: conditions({ discount_percentage: "10" }),
      isNewCustomer: false,
      patients: [patient("p1", "Постоянный", "single_layer", "hard", 12)],
    },
    lines: [["aligners_single", 12, 90_000, 1_080_000], DELIVERY_RUB],
    goods: 1_080_000,
    percent: 10,
    discount: 108_000,
    fee: 0,
    total: 1_122_000,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 1-слойные для Постоянный", 12, 81_000],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 11 × 100050 = 1100550; 3 % = 33016.5 → half up → 33017; 1100550 − 33017 + 150000 = 1217533.
    // Receipt: 1067533 = 11 × 97048 + 5 → 10 × 97048, 1 × 97053.
    name: "rub, discount ending in exactly half a kopeck rounds up",
    input: {
      currency: "rub",
      conditions: conditions({ aligner_single_layer_price: 100_050 }),
      isNewCustomer: true,
      patients: [patient("p1", "Округление", "single_layer", "hard", 11)],
    },
    lines: [["aligners_single", 11, 100_050, 1_100_550], DELIVERY_RUB],
    goods: 1_100_550,
    percent: 3,
    discount: 33_017,
    fee: 0,
    total: 1_217_533,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 1-слойные для Округление", 10, 97_048],
        ["Элайнеры 1-слойные для Округление", 1, 97_053],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 10 × 1490 = 14900; 7.5 % = 1117.5 → half up → 1118; 14900 − 1118 + 1500 = 15282.
    // Receipt: 13782 = 10 × 1378 + 2 → 9 × 1378, 1 × 1380.
    name: "eur, 7.5 % ending in exactly half a cent rounds up",
    input: {
      currency: "eur",
      conditions: conditions({ currency: "eur", discount_percentage: "7.5" }),
      isNewCustomer: false,
      patients: [patient("p1", "Half", "three_layer", "hard", 10)],
    },
    lines: [["aligners_three", 10, 1490, 14_900], DELIVERY_EUR],
    goods: 14_900,
    percent: 7.5,
    discount: 1118,
    fee: 0,
    total: 15_282,
    payment: {
      language: "en",
      lines: [
        ["Three-layer aligners for Half", 9, 1378],
        ["Three-layer aligners for Half", 1, 1380],
        ["Packaging and delivery", 1, 1500],
      ],
    },
  },
  {
    // 13 × 1390 = 18070; 7.5 % = 1355.25 → 1355; 18070 − 1355 + 1500 = 18215.
    // Receipt: 16715 = 13 × 1285 + 10 → 12 × 1285, 1 × 1295.
    name: "eur, 7.5 % with a quarter cent rounds down",
    input: {
      currency: "eur",
      conditions: conditions({ currency: "eur", discount_percentage: "7.50" }),
      isNewCustomer: false,
      patients: [patient("p1", "Quarter", "single_layer", "hard", 13)],
    },
    lines: [["aligners_single", 13, 1390, 18_070], DELIVERY_EUR],
    goods: 18_070,
    percent: 7.5,
    discount: 1355,
    fee: 0,
    total: 18_215,
    payment: {
      language: "en",
      lines: [
        ["Single-layer aligners for Quarter", 12, 1285],
        ["Single-layer aligners for Quarter", 1, 1295],
        ["Packaging and delivery", 1, 1500],
      ],
    },
  },
  {
    // 5 × 90000 = 450000; + 150000 = 600000 < 1000000 → fee 400000, total 1000000.
    name: "rub, minimum-order service fee without a discount",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Мало", "single_layer", "hard", 5)],
    },
    lines: [
      ["aligners_single", 5, 90_000, 450_000],
      DELIVERY_RUB,
      ["service_fee", 1, 400_000, 400_000],
    ],
    goods: 450_000,
    percent: 0,
    discount: 0,
    fee: 400_000,
    total: 1_000_000,
  },
  {
    // 8 × 100000 = 800000; 20 % = 160000; 640000 + 150000 = 790000 → fee 210000, total 1000000.
    // Receipt: 640000 / 8 = 80000; delivery 150000; fee 210000 (neither discounted).
    name: "rub, minimum-order service fee after a discount",
    input: {
      currency: "rub",
      conditions: conditions({ discount_percentage: "20.00" }),
      isNewCustomer: false,
      patients: [patient("p1", "Скидка", "three_layer", "hard", 8)],
    },
    lines: [
      ["aligners_three", 8, 100_000, 800_000],
      DELIVERY_RUB,
      ["service_fee", 1, 210_000, 210_000],
    ],
    goods: 800_000,
    percent: 20,
    discount: 160_000,
    fee: 210_000,
    total: 1_000_000,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 3-слойные для Скидка", 8, 80_000],
        ["Упаковка и доставка", 1, 150_000],
        ["Сервисный сбор", 1, 210_000],
      ],
    },
  },
  {
    // P1 single 10 × 90000 = 900000, soft 2 × 100000 = 200000;
    // P2 three 8 × 100000 = 800000, hard 3 × 100000 = 300000, retainer 1 × 100000 = 100000;
    // P3 null material → single 4 × 90000 = 360000, null matrix → hard 1 × 100000 = 100000.
    // goods 2760000; + 150000 = 2910000.
    name: "rub, several patients with mixed materials and matrix types",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [
        patient("p1", "Иванов", "single_layer", "soft", 10, 2),
        patient("p2", "Петров", "three_layer", "hard", 8, 3, 1),
        patient("p3", "Сидоров", null, null, 4, 1),
      ],
    },
    lines: [
      ["aligners_single", 10, 90_000, 900_000],
      ["matrices_soft", 2, 100_000, 200_000],
      ["aligners_three", 8, 100_000, 800_000],
      ["matrices_hard", 3, 100_000, 300_000],
      ["retainers", 1, 100_000, 100_000],
      ["aligners_single", 4, 90_000, 360_000],
      ["matrices_hard", 1, 100_000, 100_000],
      DELIVERY_RUB,
    ],
    goods: 2_760_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 2_910_000,
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 1-слойные для Иванов", 10, 90_000],
        ["Матрицы мягкие для Иванов", 2, 100_000],
        ["Элайнеры 3-слойные для Петров", 8, 100_000],
        ["Матрицы твердые для Петров", 3, 100_000],
        ["Ретейнеры для Петров", 1, 100_000],
        ["Элайнеры 1-слойные для Сидоров", 4, 90_000],
        ["Матрицы твердые для Сидоров", 1, 100_000],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 5 + 3 = 8 %. P1 three 7 × 1490 = 10430, soft 1 × 1490 = 1490; P2 single 3 × 1390 = 4170,
    // retainers 2 × 1490 = 2980; goods 19070; 8 % = 1525.6 → 1526; 19070 − 1526 + 1500 = 19044.
    // Spread 1526 over 19070: 10430 → 834 rem 11800; 1490 → 119 rem 4410; 4170 → 333 rem 13110;
    // 2980 → 238 rem 8820; sum 1524, leftover 2 → rem 13110 and 11800 → 835, 119, 334, 238.
    // Nets: 9595 = 7 × 1370 + 5 → 6 × 1370, 1 × 1375; 1371; 3836 = 3 × 1278 + 2 → 2 × 1278,
    // 1 × 1280; 2742 = 2 × 1371.
    name: "eur, several patients with a discount spread over every goods line",
    input: {
      currency: "eur",
      conditions: conditions({ currency: "eur", discount_percentage: 5 }),
      isNewCustomer: true,
      patients: [
        patient("p1", "Anna", "three_layer", "soft", 7, 1),
        patient("p2", "Ben", "single_layer", null, 3, 0, 2),
      ],
    },
    lines: [
      ["aligners_three", 7, 1490, 10_430],
      ["matrices_soft", 1, 1490, 1490],
      ["aligners_single", 3, 1390, 4170],
      ["retainers", 2, 1490, 2980],
      DELIVERY_EUR,
    ],
    goods: 19_070,
    percent: 8,
    discount: 1526,
    fee: 0,
    total: 19_044,
    payment: {
      language: "en",
      lines: [
        ["Three-layer aligners for Anna", 6, 1370],
        ["Three-layer aligners for Anna", 1, 1375],
        ["Soft matrices for Anna", 1, 1371],
        ["Single-layer aligners for Ben", 2, 1278],
        ["Single-layer aligners for Ben", 1, 1280],
        ["Retainers for Ben", 2, 1371],
        ["Packaging and delivery", 1, 1500],
      ],
    },
  },
  {
    // 12 × 100000 = 1200000; + 150000 = 1350000.
    name: "rub, a patient with only retainers",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Смирнова", null, null, 0, 0, 12)],
    },
    lines: [["retainers", 12, 100_000, 1_200_000], DELIVERY_RUB],
    goods: 1_200_000,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 1_350_000,
    payment: {
      language: "ru",
      lines: [
        ["Ретейнеры для Смирнова", 12, 100_000],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // No files: goods 0; 3 % of 0 = 0; 0 + 150000 → fee 850000, total 1000000.
    name: "rub, new customer with no files: delivery plus fee to the minimum",
    input: {
      currency: "rub",
      conditions: null,
      isNewCustomer: true,
      patients: [patient("p1", "Пусто", "single_layer", "soft", 0, 0, 0)],
    },
    lines: [DELIVERY_RUB, ["service_fee", 1, 850_000, 850_000]],
    goods: 0,
    percent: 3,
    discount: 0,
    fee: 850_000,
    total: 1_000_000,
    payment: {
      language: "ru",
      lines: [
        ["Упаковка и доставка", 1, 150_000],
        ["Сервисный сбор", 1, 850_000],
      ],
    },
  },
  {
    // No patients: 0 + 1500 → fee 13500, total 15000.
    name: "eur, no patients at all",
    input: {
      currency: "eur",
      conditions: null,
      isNewCustomer: false,
      patients: [],
    },
    lines: [DELIVERY_EUR, ["service_fee", 1, 13_500, 13_500]],
    goods: 0,
    percent: 0,
    discount: 0,
    fee: 13_500,
    total: 15_000,
    payment: {
      language: "en",
      lines: [
        ["Packaging and delivery", 1, 1500],
        ["Service fee", 1, 13_500],
      ],
    },
  },
  {
    // Ruble conditions on a euro order are ignored entirely: 10 × 1390 = 13900; + 1500 = 15400; no note.
    name: "eur order ignores ruble conditions (prices, discount and comment)",
    input: {
      currency: "eur",
      conditions: conditions({
        currency: "rub",
        aligner_price: 50_000,
        discount_percentage: "50",
        personal_comment: "VIP",
      }),
      isNewCustomer: false,
      patients: [patient("p1", "Dora", "single_layer", "hard", 10)],
    },
    unit: [1390, 1490, 1490, 1490, 1500],
    lines: [["aligners_single", 10, 1390, 13_900], DELIVERY_EUR],
    goods: 13_900,
    percent: 0,
    discount: 0,
    fee: 0,
    total: 15_400,
    note: null,
  },
  {
    // Euro conditions ignored on a ruble order, the new-customer 3 % stays:
    // 20 × 90000 = 1800000; 3 % = 54000; 1800000 − 54000 + 150000 = 1896000.
    name: "rub order ignores euro conditions but keeps the new-customer bonus",
    input: {
      currency: "rub",
      conditions: conditions({
        currency: "eur",
        aligner_single_layer_price: 1000,
        discount_percentage: "20",
      }),
      isNewCustomer: true,
      patients: [patient("p1", "Эрик", "single_layer", "hard", 20)],
    },
    unit: [90_000, 100_000, 100_000, 100_000, 150_000],
    lines: [["aligners_single", 20, 90_000, 1_800_000], DELIVERY_RUB],
    goods: 1_800_000,
    percent: 3,
    discount: 54_000,
    fee: 0,
    total: 1_896_000,
  },
  {
    // 100 %: 10 × 90000 = 900000, discount 900000; 0 + 150000 → fee 850000, total 1000000.
    name: "rub, 100 % discount leaves delivery and the fee",
    input: {
      currency: "rub",
      conditions: conditions({ discount_percentage: "100.00" }),
      isNewCustomer: false,
      patients: [patient("p1", "Бесплатно", "single_layer", "hard", 10)],
    },
    lines: [
      ["aligners_single", 10, 90_000, 900_000],
      DELIVERY_RUB,
      ["service_fee", 1, 850_000, 850_000],
    ],
    goods: 900_000,
    percent: 100,
    discount: 900_000,
    fee: 850_000,
    total: 1_000_000,
    payment: {
      language: "ru",
      lines: [
        ["Упаковка и доставка", 1, 150_000],
        ["Сервисный сбор", 1, 850_000],
      ],
    },
  },
  {
    // 99 + 3 = 102 → capped at 100 %; 10 × 1490 = 14900, discount 14900; 0 + 1500 → fee 13500, total 15000.
    name: "eur, 99 % plus the new-customer bonus is capped at 100 %",
    input: {
      currency: "eur",
      conditions: conditions({ currency: "eur", discount_percentage: "99" }),
      isNewCustomer: true,
      patients: [patient("p1", "Cap", "three_layer", "hard", 10)],
    },
    lines: [
      ["aligners_three", 10, 1490, 14_900],
      DELIVERY_EUR,
      ["service_fee", 1, 13_500, 13_500],
    ],
    goods: 14_900,
    percent: 100,
    discount: 14_900,
    fee: 13_500,
    total: 15_000,
    payment: {
      language: "en",
      lines: [
        ["Packaging and delivery", 1, 1500],
        ["Service fee", 1, 13_500],
      ],
    },
  },
  {
    // Discount as a number 5: 20 × 90000 = 1800000; 5 % = 90000; 1800000 − 90000 + 150000 = 1860000.
    // Receipt: 1710000 / 20 = 85500. The comment is trimmed and returned as the note.
    name: "rub, personal comment becomes the note, not a payment line",
    input: {
      currency: "rub",
      conditions: conditions({
        discount_percentage: 5,
        personal_comment: "  Оплата по договору №12  ",
      }),
      isNewCustomer: false,
      patients: [patient("p1", "Заметка", "single_layer", "hard", 20)],
    },
    lines: [["aligners_single", 20, 90_000, 1_800_000], DELIVERY_RUB],
    goods: 1_800_000,
    percent: 5,
    discount: 90_000,
    fee: 0,
    total: 1_860_000,
    note: "Оплата по договору №12",
    payment: {
      language: "ru",
      lines: [
        ["Элайнеры 1-слойные для Заметка", 20, 85_500],
        ["Упаковка и доставка", 1, 150_000],
      ],
    },
  },
  {
    // 12.5 % (number): 10 × 1390 = 13900; 12.5 % = 1737.5 → 1738; 12162 + 1500 = 13662 → fee 1338,
    // total 15000. Receipt: 12162 = 10 × 1216 + 2 → 9 × 1216, 1 × 1218; delivery 1500; fee 1338.
    // A blank comment gives no note.
    name: "eur, half-cent discount rounds up and the fee tops up the rest",
    input: {
      currency: "eur",
      conditions: conditions({
        currency: "eur",
        discount_percentage: 12.5,
        personal_comment: "   ",
      }),
      isNewCustomer: false,
      patients: [patient("p1", "Eva", "single_layer", "hard", 10)],
    },
    lines: [
      ["aligners_single", 10, 1390, 13_900],
      DELIVERY_EUR,
      ["service_fee", 1, 1338, 1338],
    ],
    goods: 13_900,
    percent: 12.5,
    discount: 1738,
    fee: 1338,
    total: 15_000,
    note: null,
    payment: {
      language: "en",
      lines: [
        ["Single-layer aligners for Eva", 9, 1216],
        ["Single-layer aligners for Eva", 1, 1218],
        ["Packaging and delivery", 1, 1500],
        ["Service fee", 1, 1338],
      ],
    },
  },
];

describe("calculateOrderPrice: hand-worked cases", () => {
  it.each(CASES)("$name", (c) => {
    const result = calculateOrderPrice(c.input);
    if (c.unit) {
      const [singleLayer, threeLayer, matrix, retainer, delivery] = c.unit;
      expect(result.unitPrices).toEqual({
        singleLayer,
        threeLayer,
        matrix,
        retainer,
        delivery,
      });
    }
    expect(
      result.lines.map((line) => [
        line.kind,
        line.quantity,
        line.unitPrice,
        line.amount,
      ])
    ).toEqual(c.lines);
    expect(result.goodsSubtotal).toBe(c.goods);
    expect(result.discountPercent).toBe(c.percent);
    expect(result.discountAmount).toBe(c.discount);
    expect(result.delivery).toBe(c.input.currency === "rub" ? 150_000 : 1500);
    expect(result.serviceFee).toBe(c.fee);
    expect(result.total).toBe(c.total);
    expect(result.minimumOrder).toBe(
      c.input.currency === "rub" ? 1_000_000 : 15_000
    );
    expect(result.currency).toBe(c.input.currency);
    if (c.note !== undefined) expect(result.note).toBe(c.note);

    for (const language of LANGUAGES) {
      expect(linesTotal(paymentLines(result, texts(language)))).toBe(c.total);
    }
    if (c.payment) {
      const lines = paymentLines(result, texts(c.payment.language));
      expect(
        lines.map((line) => [line.description, line.quantity, line.price])
      ).toEqual(c.payment.lines);
    }
  });

  it("has at least 24 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(24);
  });
});

describe("calculateOrderPrice: details", () => {
  it("keeps the patient on goods lines and not on delivery or fee lines", () => {
    const result = calculateOrderPrice({
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("id-1", "Иванов", "single_layer", "hard", 1)],
    });
    expect(result.lines[0]).toMatchObject({
      patientId: "id-1",
      patientName: "Иванов",
    });
    for (const line of result.lines.slice(1)) {
      expect(line.patientId).toBeUndefined();
      expect(line.patientName).toBeUndefined();
    }
  });

  it("rejects negative or fractional file counts and personal prices", () => {
    const base: PriceInput = {
      currency: "rub",
      conditions: null,
      isNewCustomer: false,
      patients: [],
    };
    expect(() =>
      calculateOrderPrice({
        ...base,
        patients: [patient("p", "x", null, null, -1)],
      })
    ).toThrow(RangeError);
    expect(() =>
      calculateOrderPrice({
        ...base,
        patients: [patient("p", "x", null, null, 0, 1.5)],
      })
    ).toThrow(RangeError);
    expect(() =>
      calculateOrderPrice({
        ...base,
        conditions: conditions({ matrix_price: -100 }),
      })
    ).toThrow(RangeError);
    expect(() =>
      calculateOrderPrice({
        ...base,
        conditions: conditions({ aligner_price: 100.5 }),
      })
    ).toThrow(RangeError);
  });

  it("reads discount percentages in hundredths, half up, clamped to 0–100", () => {
    // [input, hundredths of a percent]
    const table: Array<[string | number | null, number]> = [
      [null, 0],
      ["", 0],
      ["abc", 0],
      ["0.00", 0],
      ["7.50", 750],
      [7.5, 750],
      ["10", 1000],
      [" 12.25 ", 1225],
      [12.345, 1235], // 1234.5 → 1235
      [1.005, 101], // float 1.005 × 100 = 100.4999… must still give 101
      [0.07, 7],
      ["-5", 0],
      ["150", 10_000],
      [Number.NaN, 0],
    ];
    for (const [input, expected] of table)
      expect(discountHundredths(input)).toBe(expected);
  });
});

describe("payment texts", () => {
  it("builds the description of a payment in the order's language", () => {
    expect(paymentDescription("3f2a9c1e-0000-4000-8000-000000000000", texts("ru"))).toBe("Aligner order №3F2A9C");
    expect(paymentDescription("abcdef", texts("en"))).toBe("Aligner order №ABCDEF");
    expect(paymentDescription("abcdef", texts("de"))).toBe("Aligner-Bestellung Nr. ABCDEF");
    expect(paymentDescription("abcdef", texts("it"))).toBe("Ordine di allineatori n. ABCDEF");
  });

  it("words every line from the locale files: the spec's Russian, each clinic's own language", () => {
    expect(lineText("aligners_single", texts("ru"), "Иванов И.")).toBe("Элайнеры 1-слойные для Иванов И.");
    expect(lineText("matrices_soft", texts("ru"), " Петров ")).toBe("Матрицы мягкие для Петров");
    expect(lineText("service_fee", texts("ru"))).toBe("Сервисный сбор");
    expect(lineText("matrices_hard", texts("en"), "Anna")).toBe("Hard matrices for Anna");
    expect(lineText("aligners_single", texts("de"), "Anna")).toBe("Einschichtige Aligner für Anna");
    expect(lineText("delivery", texts("de"))).toBe("Verpackung und Versand");
    expect(lineText("retainers", texts("es"), "Ana")).toBe("Retenedores para Ana");
    expect(lineText("retainers", texts("fr"), "Anne")).toBe("Gouttières de contention pour Anne");
    expect(lineText("service_fee", texts("it"))).toBe("Costo del servizio");
    const kinds: PriceLineKind[] = ["aligners_single", "aligners_three", "matrices_soft", "matrices_hard", "retainers", "delivery", "service_fee"];
    for (const language of LANGUAGES.filter((l) => l !== "en")) {
      for (const kind of kinds) expect(lineText(kind, texts(language), "X")).not.toBe(lineText(kind, texts("en"), "X"));
    }
    expect(Array.from(lineText("retainers", texts("en"), "x".repeat(300)))).toHaveLength(128);
  });

  it("keeps each line's key, so a page words it in its reader's language", () => {
    const result = calculateOrderPrice({
      currency: "eur",
      conditions: null,
      isNewCustomer: false,
      patients: [patient("p1", "Clara", "single_layer", "hard", 2)],
    });
    const lines = paymentLines(result, texts("de"));
    expect(lines.map((line) => line.description)).toContain("Einschichtige Aligner für Clara");
    const reworded = lines.map((line) => texts("fr")(line.text!.key, line.text!.values));
    expect(reworded).toContain("Aligneurs monocouches pour Clara");
    expect(reworded).toContain("Emballage et livraison");
  });
});

describe("price sets", () => {
  it("hold the spec's prices in minor units", () => {
    // Spec §9 table, major units × 100.
    expect(PRICE_SETS.rub).toMatchObject({
      singleLayerMaterial: 900 * 100,
      threeLayerMaterial: 1000 * 100,
      softMatrix: 1000 * 100,
      hardMatrix: 1000 * 100,
      retainer: 1000 * 100,
      delivery: 1500 * 100,
      minimumOrder: 10_000 * 100,
      monthlyThreshold: 200_000 * 100,
    });
    expect(PRICE_SETS.eur).toMatchObject({
      singleLayerMaterial: 1390,
      threeLayerMaterial: 1490,
      softMatrix: 1490,
      hardMatrix: 1490,
      retainer: 1490,
      delivery: 1500,
      minimumOrder: 150 * 100,
      monthlyThreshold: 2000 * 100,
    });
  });

  it("formats euros with two decimals in the reader's locale and rubles with Russian grouping", () => {
    const normalize = (text: string) => text.replace(/\s/g, " ");
    expect(normalize(formatPriceSetAmount(1390, "eur", "ru"))).toBe("13,90 €");
    expect(normalize(formatPriceSetAmount(1390, "eur", "en"))).toBe("€13.90");
    expect(normalize(formatPriceSetAmount(1500, "eur", "de"))).toBe("15,00 €");
    expect(normalize(formatPriceSetAmount(1500, "eur", "es"))).toBe("15,00 €");
    expect(normalize(formatPriceSetAmount(1390, "eur", "fr"))).toBe("13,90 €");
    expect(normalize(formatPriceSetAmount(1390, "eur", "it"))).toBe("13,90 €");
    expect(normalize(formatPriceSetAmount(1395, "eur", "en"))).toBe("€13.95");
    expect(normalize(formatPriceSetAmount(1_000_000, "rub", "ru"))).toBe(
      "10 000 ₽"
    );
    expect(normalize(formatPriceSetAmount(20_000_000, "rub", "en"))).toBe(
      "200 000 ₽"
    );
    expect(normalize(formatPriceSetAmount(90_000, "rub"))).toBe("900 ₽");
  });
});

/** mulberry32: a small seeded generator, so failures are reproducible. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) =>
    min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick };
}

function randomInput(random: ReturnType<typeof seeded>): PriceInput {
  const currency = random.pick(["rub", "eur"] as const);
  const price = () =>
    random.next() < 0.5
      ? null
      : random.pick([
          0,
          1,
          7,
          99,
          1390,
          1499,
          90_000,
          100_050,
          random.int(0, 250_000),
        ]);
  const discount = () =>
    random.pick<string | number | null>([
      null,
      "0.00",
      String(random.int(0, 100)),
      `${random.int(0, 99)}.${String(random.int(0, 99)).padStart(2, "0")}`,
      random.int(0, 10_000) / 100,
      "100",
    ]);
  const conditionsValue =
    random.next() < 0.3
      ? null
      : conditions({
          currency:
            random.next() < 0.8 ? currency : currency === "rub" ? "eur" : "rub",
          aligner_price: price(),
          aligner_single_layer_price: price(),
          aligner_three_layer_price: price(),
          matrix_price: price(),
          retainer_standard_price: price(),
          discount_percentage: discount(),
          personal_comment: random.pick([null, "", "  ", "note"]),
        });
  const patients = Array.from({ length: random.int(0, 5) }, (_, index) =>
    patient(
      `p${index}`,
      `Patient ${index}`,
      random.pick(["single_layer", "three_layer", null] as const),
      random.pick(["soft", "hard", null] as const),
      random.int(0, 40),
      random.int(0, 10),
      random.pick([0, 0, 1, 2, random.int(0, 20)])
    )
  );
  return {
    currency,
    conditions: conditionsValue,
    isNewCustomer: random.next() < 0.5,
    patients,
  };
}

describe("pricing properties over generated orders", () => {
  const random = seeded(20240611);
  const inputs = Array.from({ length: 3000 }, () => randomInput(random));

  /** Runs a check over every input and reports the first few failures with their input. */
  function everyInput(
    check: (input: PriceInput, fail: (message: string) => void) => void
  ) {
    const failures: string[] = [];
    for (const input of inputs) {
      check(input, (message) => {
        if (failures.length < 5)
          failures.push(`${message}: ${JSON.stringify(input)}`);
      });
    }
    expect(failures).toEqual([]);
  }

  it("keeps the breakdown consistent", () => {
    everyInput((input, fail) => {
      const result = calculateOrderPrice(input);
      for (const line of result.lines) {
        if (!Number.isInteger(line.unitPrice) || line.unitPrice < 0)
          fail(`bad unit price ${line.unitPrice}`);
        if (line.amount !== line.quantity * line.unitPrice)
          fail("amount is not quantity × unit price");
      }
      const goods = result.lines
        .filter(isGoodsLine)
        .reduce((sum, line) => sum + line.amount, 0);
      if (result.goodsSubtotal !== goods) fail("goods subtotal");
      if (
        result.discountPercent < (input.isNewCustomer ? 3 : 0) ||
        result.discountPercent > 100
      )
        fail("discount percent range");
      if (
        !Number.isInteger(result.discountAmount) ||
        result.discountAmount < 0 ||
        result.discountAmount > result.goodsSubtotal
      ) {
        fail("discount amount range");
      }
      // Within half a minor unit of the exact percentage.
      if (
        Math.abs(
          result.discountAmount -
            (result.goodsSubtotal * result.discountPercent) / 100
        ) >
        0.5 + 1e-6
      )
        fail("discount rounding");
      if (
        result.total !==
        result.goodsSubtotal -
          result.discountAmount +
          result.delivery +
          result.serviceFee
      )
        fail("total");
      if (result.total < result.minimumOrder) fail("below the minimum");
      if (result.serviceFee > 0 && result.total !== result.minimumOrder)
        fail("fee does not top up to exactly the minimum");
      if (input.conditions && input.conditions.currency !== input.currency) {
        if (
          result.unitPrices.singleLayer !==
          PRICE_SETS[input.currency].singleLayerMaterial
        )
          fail("foreign prices used");
        if (result.discountPercent !== (input.isNewCustomer ? 3 : 0))
          fail("foreign discount used");
        if (result.note !== null) fail("foreign note used");
      }
    });
  });

  it("makes payment lines that add up to the total with whole, positive prices", () => {
    everyInput((input, fail) => {
      const result = calculateOrderPrice(input);
      for (const language of LANGUAGES) {
        const lines = paymentLines(result, texts(language));
        if (linesTotal(lines) !== result.total)
          fail(
            `${language} lines add up to ${linesTotal(lines)}, not ${
              result.total
            }`
          );
        for (const line of lines) {
          if (!Number.isInteger(line.price) || line.price <= 0)
            fail(`bad price ${line.price}`);
          if (!Number.isInteger(line.quantity) || line.quantity <= 0)
            fail(`bad quantity ${line.quantity}`);
          if (line.description === "") fail("empty description");
        }
      }
    });
  });

  it("never discounts delivery or the fee, and spreads the discount within one unit per line", () => {
    everyInput((input, fail) => {
      const result = calculateOrderPrice(input);
      const lines = paymentLines(result, texts("en"));
      const sumOf = (description: string) =>
        lines
          .filter((line: PaymentLine) => line.description === description)
          .reduce((sum, line) => sum + line.price * line.quantity, 0);
      if (sumOf("Packaging and delivery") !== result.delivery)
        fail("delivery discounted");
      if (sumOf("Service fee") !== result.serviceFee) fail("fee discounted");
      let netGoods = 0;
      for (const line of result.lines.filter(isGoodsLine)) {
        const net = sumOf(lineText(line.kind, texts("en"), line.patientName));
        netGoods += net;
        const share = line.amount - net;
        const exact =
          result.goodsSubtotal === 0
            ? 0
            : (line.amount * result.discountAmount) / result.goodsSubtotal;
        if (share < 0 || share > line.amount)
          fail(`share ${share} outside 0…${line.amount}`);
        if (Math.abs(share - exact) >= 1)
          fail(`share ${share} too far from ${exact}`);
      }
      if (netGoods !== result.goodsSubtotal - result.discountAmount)
        fail("goods lines do not carry the whole discount");
    });
  });
});

describe("appliedDiscount: a discount is a saving only as far as it lowers the total", () => {
  const matrices = (count: number, discount: number) =>
    calculateOrderPrice({
      currency: "rub",
      conditions: conditions({ currency: "rub", discount_percentage: discount }),
      isNewCustomer: false,
      patients: [patient("p1", "Anna", "single_layer", "hard", 0, count)],
    });
  it("keeps a discount the minimum does not touch", () => {
    const price = matrices(20, 10);
    expect(appliedDiscount(price)).toEqual({ saving: price.discountAmount, serviceFee: 0, applies: "full" });
  });
  it("shows none of a discount the fee cancels, and the fee from the undiscounted goods", () => {
    const price = matrices(2, 3);
    expect(price.total).toBe(1_000_000);
    expect(appliedDiscount(price)).toEqual({ saving: 0, serviceFee: 650_000, applies: "none" });
  });
  it("shows the part of a discount that lowers the total down to the minimum", () => {
    // 9 × 1 000 = 9 000 + 1 500 = 10 500 undiscounted; −10 % = 9 600 → 10 000: a saving of 500 ₽.
    const price = matrices(9, 10);
    expect(price.total).toBe(1_000_000);
    expect(appliedDiscount(price)).toEqual({ saving: 50_000, serviceFee: 0, applies: "partly" });
  });
});
