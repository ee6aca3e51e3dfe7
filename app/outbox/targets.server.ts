import type { Logger } from "pino";
import type { Config } from "~/server/config.server";

export type WebhookSetting = Extract<keyof Config, `WEBHOOK_${string}_URL`>;

/** The webhook settings as the delivery worker reads them: only those set. */
export type WebhookUrls = Partial<Pick<Config, WebhookSetting>>;

/** Every webhook target and what it receives. Unset, that kind of submission is stored only. */
export const WEBHOOK_TARGETS: ReadonlyArray<{ setting: WebhookSetting; receives: string }> = [
  { setting: "WEBHOOK_ESTIMATE_URL", receives: "public estimate requests" },
  { setting: "WEBHOOK_ESTIMATE_INTERNAL_URL", receives: "internal estimate requests" },
  { setting: "WEBHOOK_JOB_REQUEST_URL", receives: "job requests" },
  { setting: "WEBHOOK_TEAM_MESSAGE_URL", receives: "team messages" },
  { setting: "WEBHOOK_CHECKLIST_URL", receives: "estimate checklists" },
  { setting: "WEBHOOK_APPLICATION_URL", receives: "job applications" },
  { setting: "WEBHOOK_APPLICATION_SECONDARY_URL", receives: "job applications (second target)" },
  { setting: "WEBHOOK_ASSESSMENT_URL", receives: "skills assessments" },
  { setting: "WEBHOOK_PEER_REVIEW_URL", receives: "peer reviews" },
];

/**
 * Where a webhook delivery to `target` goes now: the URL configured for it at this moment, not the one stored
 * when the submission came in, so a corrected setting reaches every retry and replay. Undefined when unset.
 */
export function currentWebhookUrl(urls: WebhookUrls, target: string): string | undefined {
  return WEBHOOK_TARGETS.some(({ setting }) => setting === target) ? urls[target as WebhookSetting] : undefined;
}

/** What staff read on a webhook delivery held because its target is no longer configured. */
export const unconfiguredTargetError = (target: string) => `${target} is not set, so it is held until it is set again`;

export function logUnsetTargets(config: Config, logger: Logger): void {
  for (const { setting, receives } of WEBHOOK_TARGETS) {
    if (!config[setting]) logger.info(`${setting} is not set: ${receives} are stored only`);
  }
  if (!config.SMTP_URL) logger.info("SMTP_URL is not set: no notification emails are sent");
  if (!config.TWILIO_ACCOUNT_SID) logger.info("TWILIO_ACCOUNT_SID is not set: no text messages are sent");
  if (config.ALERT_SMS_TO && !config.TWILIO_ACCOUNT_SID) {
    logger.warn("ALERT_SMS_TO is set but Twilio is not: dashboard alerts are not texted");
  }
}
