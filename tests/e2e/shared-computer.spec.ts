import { expect, test } from "@playwright/test";
import { signInPacker } from "./journeys";

/**
 * A packing-room PC is shared (ADR 031): after the packer signs out, neither the back button nor the
 * browser's cache brings the order cards or a label back — every private page is `no-store`, so the
 * browser asks the server again and the server asks for the password.
 */
test("after signing out at the packer station, going back shows the password form, not the cards or the labels", async ({ page }) => {
  test.setTimeout(60_000);
  await signInPacker(page);
  const card = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: "Этикетки на пакеты" }) }).first();
  const id = (await card.getAttribute("id"))!.slice(2);
  const number = (await card.locator("h2").textContent())!.trim();
  const boxLabel = `/packer/box/${id}`;
  const bagLabels = `/packer/bags/${id}`;
  // Label pages print themselves shortly after they open; a print dialog has no place in this journey.
  await page.addInitScript(() => void (window.print = () => undefined));

  const privatePages: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/packer") && response.request().resourceType() === "document") privatePages.push(response.headers()["cache-control"] ?? "");
  });
  await page.goto(boxLabel);
  await expect(page.locator(".box-label .box-number")).toBeVisible();
  await page.goto(bagLabels);
  await expect(page.locator(".bag-label").first()).toBeVisible();
  await page.goto("/packer");
  await expect(page.locator(".pk-card").first()).toBeVisible();
  expect(privatePages.length).toBeGreaterThanOrEqual(3);
  for (const cacheControl of privatePages) expect(cacheControl).toContain("no-store");

  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page.getByLabel("Пароль")).toBeVisible();
  const askedAgain: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") askedAgain.push(new URL(request.url()).pathname);
  });

  // Back to the cards, to the bag labels, then to the box label: each asks the server again, which wants the password.
  for (let step = 0; step < 3; step++) {
    await page.goBack();
    await expect(page.getByLabel("Пароль")).toBeVisible();
    await expect(page.locator(".pk-card")).toHaveCount(0);
    await expect(page.locator(".box-label")).toHaveCount(0);
    await expect(page.locator(".bag-label")).toHaveCount(0);
    await expect(page.getByText(number, { exact: true })).toHaveCount(0);
  }
  expect(askedAgain).toEqual(expect.arrayContaining([bagLabels, boxLabel]));
  for (const label of [boxLabel, bagLabels]) {
    await page.goto(label);
    await expect(page).toHaveURL(/\/packer\?redirectTo=/);
    await expect(page.locator(".box-label")).toHaveCount(0);
    await expect(page.locator(".bag-label")).toHaveCount(0);
  }
});
