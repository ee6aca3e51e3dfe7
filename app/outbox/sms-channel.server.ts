import type { DeliveryChannelSender } from "./delivery-channel.server";
import type { SmsBody } from "./sms-sender.server";

export const smsChannel: DeliveryChannelSender = {
  perTargetLimit: 20,
  async send(delivery, { smsSender }) {
    if (!smsSender) return { ok: false, error: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are not set" };
    return smsSender.send(delivery.destination, delivery.body as SmsBody);
  },
};
