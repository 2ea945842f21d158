import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizePhone } from '../../src/entries/phone.ts';

describe('normalizePhone', () => {
  const valid: Array<[string, string, string]> = [
    ['a São Paulo mobile', '5511987654321', '5511987654321'],
    ['a São Paulo landline', '551133334444', '551133334444'],
    ['a Brasília mobile', '5561912345678', '5561912345678'],
    ['a US number', '14155552671', '14155552671'],
    ['a Canadian number', '16135550123', '16135550123'],
    ['a German mobile', '4915123456789', '4915123456789'],
    ['a French mobile', '33612345678', '33612345678'],
    ['a Niue number (7 digits in all)', '6834002', '6834002'],
    ['a leading +', '+5511987654321', '5511987654321'],
    ['spaces, parentheses and a dash', '+55 (11) 98765-4321', '5511987654321'],
    ['dots', '55.11.98765.4321', '5511987654321'],
    ['surrounding whitespace', ' 5511987654321 ', '5511987654321'],
    ['a trunk 0 after the country code, dropped to the canonical form', '55 011 98765-4321', '5511987654321'],
  ];
  for (const [what, raw, expected] of valid) {
    it(`accepts ${what}: ${JSON.stringify(raw)} -> ${expected}`, () => {
      assert.equal(normalizePhone(raw), expected);
    });
  }

  const invalid: Array<[string, string]> = [
    ['a Brazilian mobile without 55 (reads as an invalid +1 number)', '11987654321'],
    ['a Brazilian landline without 55', '1133334444'],
    ['an 11-digit Brazilian number not starting with 9 (valid only for the min metadata)', '5511887654321'],
    ['a Brazilian number starting with 0 (valid only for the min metadata)', '5511087654321'],
    ['a pre-2016 8-digit São Paulo mobile (valid only for the min metadata)', '551187654321'],
    ['a non-existent US area code', '15555555555'],
    ['too many digits', '55119876543210'],
    ['more than 15 digits', '5511987654321000'],
    ['too few digits', '55119'],
    ['empty', ''],
    ['only a +', '+'],
    ['a + in the middle', '55+11987654321'],
    ['two leading +', '++5511987654321'],
    ['an international 00 prefix', '005511987654321'],
    ['letters', '5511987654321abc'],
    ['an extension', '5511987654321x12'],
    ['an extension word', '5511987654321 ext 12'],
    ['a slash', '55/11/987654321'],
    ['Arabic-Indic digits', '٥٥١١٩٨٧٦٥٤٣٢١'],
    ['a very long input', `55119876543${' '.repeat(100)}21`],
  ];
  for (const [what, raw] of invalid) {
    it(`rejects ${what}: ${JSON.stringify(raw)}`, () => {
      assert.equal(normalizePhone(raw), null);
    });
  }

  it('accepts a Brazilian number sent without 55 when it is valid in the country it reads as (+51 Peru)', () => {
    // Documented limit: country code is required, so 51 98765-4321 is a Peruvian mobile.
    assert.equal(normalizePhone('51987654321'), '51987654321');
  });
});
