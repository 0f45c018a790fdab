/**
 * Every automated text, in one place. Carrier rules (CTIA, A2P 10DLC): the verification and opt-in
 * texts carry the brand, the frequency, the rates line and STOP/HELP.
 */
export const BRAND = 'Jotline';
const FREQUENCY = 'Msg frequency varies, up to 2 msgs/day.';
const RATES = 'Msg & data rates may apply.';
const KEYWORDS = 'Reply HELP for help, STOP to opt out.';

export const smsTexts = {
  verification: () =>
    `${BRAND}: Reply YES to verify your phone and start journaling by text. ${FREQUENCY} ${RATES} ${KEYWORDS}`,
};
