import { describe, expect, it } from 'vitest';
import { isUsTextableNumber } from './phone-us';

describe('isUsTextableNumber', () => {
  it('accepts US numbers, in the 555 exchange too outside its fiction lines', () => {
    for (const phone of ['+12125551234', '+16462201234', '+14155550200', '+13125557890', '+19175550299']) {
      expect(isUsTextableNumber(phone), phone).toBe(true);
    }
  });

  it('refuses other +1 countries, premium lines, N11 codes and 555-01xx', () => {
    const refused = ['+14165551234', '+16042221234', '+18765551234', '+18095551234', '+12845551234', '+17875551234', '+13405551234', '+16715551234',
      '+19005551234', '+12129765432', '+12115551234', '+12124115555', '+12025550123', '+12025550199', '+15555550100'];
    for (const phone of refused) expect(isUsTextableNumber(phone), phone).toBe(false);
  });

  it('refuses anything that is not +1 and ten digits', () => {
    for (const phone of ['2125551234', '+442079460958', '+1212555123', '']) expect(isUsTextableNumber(phone), phone).toBe(false);
  });
});
