import type { Logger } from "pino";
import { type Config, isWebhookSetting, type WebhookSetting } from "~/services/config.server";

/** The webhook settings as the delivery worker reads them: only those set. */
export type WebhookUrls = Partial<Record<WebhookSetting, string>>;

/** The webhook settings that are set: where held webhook deliveries may go again. */
export const configuredWebhookSettings = (urls: WebhookUrls): WebhookSetting[] =>
  Object.keys(urls).filter((name) => isWebhookSetting(name) && urls[name as WebhookSetting]) as WebhookSetting[];

/**
 * Where a webhook delivery to `target` goes now: the URL configured for it at this moment, not the one stored
 * when the submission came in, so a corrected setting reaches every retry and replay. Undefined when unset.
 */
export function currentWebhookUrl(urls: WebhookUrls, target: string): string | undefined {
  return isWebhookSetting(target) ? urls[target] : undefined;
}

/** What staff read on a webhook delivery held because its target is no longer configured. */
export const unconfiguredTargetError = (target: string) => `${target} is not set, so it is held until it is set again`;

/** Says at start which kinds of submission go nowhere but the inbox, from the targets the forms declare. */
export function logUnsetTargets(
  config: Config,
  logger: Logger,
  targets: ReadonlyArray<{ setting: WebhookSetting; receives: string }>,
): void {
  for (const { setting, receives } of targets) {
    if (!config[setting]) logger.info(`${setting} is not set: ${receives} are stored only`);
  }
  if (!config.SMTP_URL) logger.info("SMTP_URL is not set: no notification emails are sent");
  if (!config.TWILIO_ACCOUNT_SID) logger.info("TWILIO_ACCOUNT_SID is not set: no text messages are sent");
  if (config.ALERT_SMS_TO && !config.TWILIO_ACCOUNT_SID) {
    logger.warn("ALERT_SMS_TO is set but Twilio is not: dashboard alerts are not texted");
  }
}
