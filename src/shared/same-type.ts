/** `true` exactly when A and B are the same type; compile-time checks assign `true` to it. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
