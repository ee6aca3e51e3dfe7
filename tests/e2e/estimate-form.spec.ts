import { startAppServer } from "../support/app-server";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { fillEstimate, sendButton } from "./public-forms";
import { cutSignal, restoreSignal } from "./signal";

test("an empty required field shows 'Please enter all fields' and sends nothing", async ({ page }) => {
  await page.goto("/learnmore#form");
  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posts++;
  });
  await page.locator("#form").getByLabel("First name").fill("Avery");
  await sendButton(page).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter all fields");
  await expect(page.locator("#form").getByLabel("Last name")).toHaveAttribute("aria-invalid", "true");
  expect(posts).toBe(0);
});

test("a commercial request opens the success dialog with its reference, and the form keeps its values", async ({
  page,
}) => {
  await page.goto("/learnmore#form");
  await fillEstimate(page, "Commercial");
  await sendButton(page).click();
  const dialog = page.getByRole("dialog", { name: "success!" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("we have received your request and will reach out to you shortly");
  await expect(dialog).toContainText(/Your reference number is EST-[0-9A-Z]{6}\./);
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(sendButton(page)).toBeFocused();
  await expect(page.locator("#form").getByLabel("First name")).toHaveValue("Avery");
  await expect(page.locator("#form").getByLabel("Comments")).toHaveValue("Panel upgrade for a two-story office.");
});

test("a residential request is told the company takes commercial projects only", async ({ page }) => {
  await page.goto("/lighting#form");
  await fillEstimate(page, "Residential");
  await sendButton(page).click();
  const dialog = page.getByRole("dialog", { name: "success!" });
  await expect(dialog).toContainText("We currently focus only on commercial projects");
  await expect(dialog).toContainText("kept your information on file");
  await expectNoAxeViolations(page, "success dialog");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("when our server cannot be reached, the visitor gets the office phone and keeps every value", async ({ page }) => {
  await page.goto("/education#form");
  await fillEstimate(page, "Commercial");
  await page.route("**/forms/estimate", (route) =>
    route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue(),
  );
  await sendButton(page).click();
  await expect(page.getByRole("alert")).toContainText("We couldn't reach our server");
  await expect(page.getByRole("alert")).toContainText("(803) 555-0142");
  await expect(page.locator("#form").getByLabel("Email")).toHaveValue("avery@example.com");
  await expect(page.locator("#form").getByRole("radio", { name: "Commercial" })).toBeChecked();

  await page.unroute("**/forms/estimate");
  await sendButton(page).click();
  await expect(page.getByRole("dialog", { name: "success!" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form still sends, and the answer shows the same messages", async ({ page }) => {
    await page.goto("/commercial#form");
    await sendButton(page).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter all fields");
    await fillEstimate(page, "Commercial");
    await sendButton(page).click();
    await expect(page.getByText("success!")).toBeVisible();
    await expect(page.getByText(/Your reference number is EST-[0-9A-Z]{6}\./)).toBeVisible();
    await expect(page.locator("#form").getByLabel("City")).toHaveValue("Sumter");
  });
});

test.describe("without JavaScript, the answer", () => {
  test.use({ javaScriptEnabled: false });

  test("opens at the form with its message in view, on the about page and a service page", async ({ page }) => {
    for (const path of ["/learnmore", "/healthcare"]) {
      await page.goto(path);
      await sendButton(page).click();
      await expect(page).toHaveURL(`${path}#form`);
      await expect(page.getByRole("alert")).toHaveText("Please enter all fields");
      await expect(page.getByRole("alert")).toBeInViewport();
    }
  });
});

test("sent while offline, the form keeps every value and says the connection was lost; back online it is sent", async ({
  page,
  context,
}) => {
  await page.goto("/lighting#form");
  await fillEstimate(page, "Commercial");
  await cutSignal(context);
  await sendButton(page).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("connection was lost");
  await expect(alert).toBeInViewport();
  await expect(page.locator("#form").getByLabel("Email")).toHaveValue("avery@example.com");
  await expect(page.locator("#form").getByLabel("Comments")).toHaveValue("Panel upgrade for a two-story office.");
  await expect(page.locator("#form").getByRole("radio", { name: "Commercial" })).toBeChecked();

  await restoreSignal(context);
  await sendButton(page).click();
  await expect(page.getByRole("dialog", { name: "success!" })).toContainText(/reference number is EST-/);
});

test("when the answer is lost after the server stored the request, sending again is safe and gives the same reference", async ({
  page,
}) => {
  await page.goto("/healthcare#form");
  await fillEstimate(page, "Commercial");
  let storedAnswer = "";
  await page.route("**/forms/estimate", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    storedAnswer = await (await route.fetch()).text();
    return route.abort("connectionreset");
  });
  await sendButton(page).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("could not confirm");
  await expect(alert).toContainText("sending again is safe");
  await expect(alert).toBeInViewport();
  const storedReference = storedAnswer.match(/EST-[0-9A-Z]{6}/)?.[0];
  expect(storedReference).toBeDefined();

  await page.unroute("**/forms/estimate");
  await sendButton(page).click();
  await expect(page.getByRole("dialog", { name: "success!" })).toContainText(
    `Your reference number is ${storedReference}.`,
  );
});

test("past the address's limit, the refusal is in view beside the form, the values kept", async ({ page }) => {
  test.setTimeout(90_000);
  const app = await startAppServer({ env: { PUBLIC_FORM_RATE_LIMIT: "1" } });
  try {
    await page.goto(`${app.url}/learnmore#form`);
    await fillEstimate(page, "Commercial");
    await sendButton(page).click();
    const dialog = page.getByRole("dialog", { name: "success!" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");

    // A changed request is a new one, with a new key: the second from this address in ten minutes.
    await page.locator("#form").getByLabel("Comments").fill("A second building as well.");
    await sendButton(page).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Too many requests from your connection");
    await expect(alert).toBeInViewport();
    await expect(page.locator("#form").getByLabel("Comments")).toHaveValue("A second building as well.");
    await expect(sendButton(page)).toBeEnabled();
  } finally {
    await app.stop();
  }
});
