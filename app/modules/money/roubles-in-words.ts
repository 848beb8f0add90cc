/**
 * An amount in roubles written out, as a Russian invoice states its total ("сумма прописью"):
 * "Двенадцать тысяч пятьсот рублей 00 копеек". Roubles in words, kopecks in two digits, each noun
 * in the form its number asks for; thousands are feminine ("одна тысяча", "две тысячи").
 */

const ONES = ["", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"];
const ONES_FEMININE = ["", "одна", "две", ...ONES.slice(3)];
const TEENS = ["десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать", "шестнадцать", "семнадцать", "восемнадцать", "девятнадцать"];
const TENS = ["", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят", "девяносто"];
const HUNDREDS = ["", "сто", "двести", "триста", "четыреста", "пятьсот", "шестьсот", "семьсот", "восемьсот", "девятьсот"];

type Forms = readonly [one: string, few: string, many: string];

/** Groups of three digits from the lowest up: their nouns and whether they are feminine. */
const GROUPS: { forms: Forms; feminine: boolean }[] = [
  { forms: ["рубль", "рубля", "рублей"], feminine: false },
  { forms: ["тысяча", "тысячи", "тысяч"], feminine: true },
  { forms: ["миллион", "миллиона", "миллионов"], feminine: false },
  { forms: ["миллиард", "миллиарда", "миллиардов"], feminine: false },
];

const KOPECKS: Forms = ["копейка", "копейки", "копеек"];

/** The noun's form for a count: 1, 21 → one; 2–4, 22 → few; 0, 5–20, 11–14 → many. */
export function russianPlural(count: number, forms: Forms): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}

function threeDigits(value: number, feminine: boolean): string[] {
  const words = [HUNDREDS[Math.floor(value / 100)]!];
  const rest = value % 100;
  if (rest >= 10 && rest < 20) words.push(TEENS[rest - 10]!);
  else words.push(TENS[Math.floor(rest / 10)]!, (feminine ? ONES_FEMININE : ONES)[rest % 10]!);
  return words.filter(Boolean);
}

/** `minorUnits` kopecks (an integer, not negative, under a trillion roubles) in words. */
export function roublesInWords(minorUnits: number): string {
  if (!Number.isSafeInteger(minorUnits) || minorUnits < 0) throw new RangeError(`not an amount in kopecks: ${minorUnits}`);
  const roubles = Math.floor(minorUnits / 100);
  const kopecks = minorUnits % 100;
  if (roubles >= 1000 ** GROUPS.length) throw new RangeError(`too large to write out: ${roubles} roubles`);
  const words: string[] = [];
  for (let index = GROUPS.length - 1; index >= 0; index--) {
    const group = Math.floor(roubles / 1000 ** index) % 1000;
    const { forms, feminine } = GROUPS[index]!;
    // The roubles' noun is always said ("тысяча рублей"); a higher group only when it has digits;
    // "ноль" only for no roubles at all.
    if (group === 0 && index > 0) continue;
    const digits = group > 0 ? threeDigits(group, feminine) : roubles === 0 ? ["ноль"] : [];
    words.push(...digits, russianPlural(group, forms));
  }
  const sentence = `${words.join(" ")} ${String(kopecks).padStart(2, "0")} ${russianPlural(kopecks, KOPECKS)}`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
