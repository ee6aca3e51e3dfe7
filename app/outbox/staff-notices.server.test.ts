import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { staffNotices } from "~/services/db/schema.server";
import { createEmailSender, type EmailSender } from "./email-sender.server";
import { queueStaffNotices, sendDueStaffNotices } from "./staff-notices.server";

let database: TestDatabase;
let smtp: SmtpReceiver;
let emailSender: EmailSender;
beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpReceiver();
  emailSender = createEmailSender(smtp.smtpUrl, "Tri County Electric <no-reply@example.com>");
});
afterAll(async () => {
  emailSender.close();
  await smtp.close();
  await database.drop();
});

describe("staff notices", () => {
  it("are sent once each; one the mail server turns away waits five minutes before its next try", async () => {
    smtp.refuseRecipient("busy@example.com", "450 4.2.1 mailbox busy");
    await queueStaffNotices(database.db, [
      { recipient: "dana@example.com", subject: "Two-step verification locked for Dana", text: "What happened." },
      { recipient: "busy@example.com", subject: "Two-step verification locked for Dana", text: "What happened." },
    ]);
    expect(await sendDueStaffNotices(database.db, emailSender)).toBe(1);
    expect(smtp.messages.map((message) => message.envelope.rcptTo)).toEqual([["dana@example.com"]]);
    expect(await sendDueStaffNotices(database.db, emailSender)).toBe(0);
    expect(smtp.messages).toHaveLength(1);
    const [waiting] = await database.db
      .select()
      .from(staffNotices)
      .where(eq(staffNotices.recipient, "busy@example.com"));
    expect(waiting).toMatchObject({ sentAt: null, attemptCount: 1 });
    expect(waiting?.lastError).toContain("mailbox busy");
    expect(waiting?.leaseExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
  });

  it("are not sent once a day old: the lock they tell of is long over", async () => {
    await database.db.insert(staffNotices).values({
      recipient: "late@example.com",
      subject: "Two-step verification locked for Dana",
      text: "What happened.",
      createdAt: new Date(Date.now() - 25 * 3_600_000),
    });
    await sendDueStaffNotices(database.db, emailSender);
    expect(smtp.messages.flatMap((message) => message.envelope.rcptTo)).not.toContain("late@example.com");
  });
});
