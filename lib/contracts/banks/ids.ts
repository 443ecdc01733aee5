/** Bank ids (CONTRACT §8); a module of its own so contract files stay safe to load in the browser. */
export const BANK_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
