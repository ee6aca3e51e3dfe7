/** `{phone}` in a text of the site's content stands for the office phone as shown, so a new number reaches it. */
const PHONE_PLACEHOLDER = "{phone}";

/** The text with `{phone}` replaced by the office phone as shown. */
export function withPhone(text: string, content: { company: { phone: string } }): string {
  return text.replaceAll(PHONE_PLACEHOLDER, content.company.phone);
}

/** The text with the phone number written out as `{phone}`: how the defaults are made from today's texts. */
export function phonePlaceholderFor(text: string, phone: string): string {
  return text.replaceAll(phone, PHONE_PLACEHOLDER);
}

/** The `tel:` link of a phone number as shown: "(803) 555-0142" is tel:+18035550142 (US numbers get +1). */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^0-9+]/g, "");
  if (digits.startsWith("+")) return `tel:${digits}`;
  return `tel:+${digits.length === 10 ? `1${digits}` : digits}`;
}
