import { fieldErrorClass } from "./field-look";

/** A field's error under it; `announce` reads it out as it appears (role=alert). */
export function FieldError({
  id,
  message,
  announce,
  large,
}: {
  id: string;
  message: string | undefined;
  announce?: boolean;
  large?: boolean;
}) {
  return message ? (
    <p id={id} role={announce ? "alert" : undefined} className={large ? fieldErrorClass.large : fieldErrorClass.normal}>
      {message}
    </p>
  ) : null;
}
