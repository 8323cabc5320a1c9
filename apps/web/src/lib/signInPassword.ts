/**
 * The password a user just signed in with, kept in this page's memory (never in storage) only when
 * the server answered that it must be replaced: the forced change then needs no second typing of
 * it. It is dropped once used, and with the page.
 */
let held: string | undefined;

/** After a password sign-in: keeps the password only if the account must choose a new one. */
export function noteSignInPassword(password: string, changeRequired: boolean): void {
  held = changeRequired ? password : undefined;
}

/** The password kept by the last sign-in, if any. */
export function signInPassword(): string | undefined {
  return held;
}

export function forgetSignInPassword(): void {
  held = undefined;
}
