import { publishedOfficeEmail } from "~/content/published-company";
import type { Config } from "~/services/config.server";

/**
 * The office's address, read by people: STAFF_NOTIFY_EMAIL, else the company's published address. The staff
 * requests' invites name it as their organizer and their emails as Reply-To, so Accept, Decline and replies
 * reach someone, never the site's sending address (MAIL_FROM).
 */
export function officeEmail(config: Pick<Config, "STAFF_NOTIFY_EMAIL">): string {
  return config.STAFF_NOTIFY_EMAIL ?? publishedOfficeEmail();
}
