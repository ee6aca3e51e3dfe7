import type { DeliveryChannelSender } from "./delivery-channel.server";
import { EMAIL_CONNECTIONS, type EmailBody } from "./email-sender.server";
import { readSubmissionFiles } from "./submission-files.server";

export const emailChannel: DeliveryChannelSender = {
  perTargetLimit: EMAIL_CONNECTIONS,
  async send(delivery, { db, emailSender }) {
    if (!emailSender) return { ok: false, error: "SMTP_URL is not set" };
    const email = delivery.body as EmailBody;
    const attached = email.attachStoredFiles?.length
      ? await readSubmissionFiles(db, delivery.submissionId, email.attachStoredFiles)
      : [];
    return emailSender.send(
      delivery.destination,
      email,
      attached.map((file) => ({ filename: file.fileName, content: file.content, contentType: file.contentType })),
    );
  },
};
