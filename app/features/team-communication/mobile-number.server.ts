import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/** A phone number as written somewhere, read for texting: E.164 when it is a real number, else unreadable. */
export type MobileNumber = { e164: string } | { unreadable: string };

/** Reads a number as US unless it says otherwise (+44 ...); the full metadata tells real numbers from typos. */
export function readMobileNumber(written: string): MobileNumber {
  const phone = parsePhoneNumberFromString(written, "US");
  return phone?.isValid() ? { e164: phone.number } : { unreadable: written };
}
