/** The contract version (spec section 9): `info.version` of /openapi.json. */
export const CONTRACT_VERSION = "0.7.0";
