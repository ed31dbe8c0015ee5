import { expect } from 'chai';
import {
  acceptedLanguages,
  CATALOGS,
  chooseLocale,
  translate,
  type MessageKey,
} from '../../../packages/client-side/i18n/index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('message catalogs of the payer-facing pages', () => {
  const reference = CATALOGS.en;
  const keys = Object.keys(reference) as MessageKey[];

  it('has at least English, German, French, Spanish, Italian, Polish, Portuguese and Dutch', () => {
    expect(Object.keys(CATALOGS)).to.include.members(['en', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'nl']);
  });

  for (const [locale, catalog] of Object.entries(CATALOGS))
    it(`${locale}: every key of English, no other, each non-empty with the same placeholders`, () => {
      expect(Object.keys(catalog).sort()).to.deep.equal([...keys].sort());
      for (const key of keys) {
        const text = (catalog as Record<string, string>)[key]!;
        expect(text.trim(), `${locale}.${key}`).not.to.equal('');
        expect(placeholders(text), `${locale}.${key}`).to.deep.equal(placeholders(reference[key]));
      }
    });

  it("chooses the merchant's locale, else the browser's languages, else English", () => {
    expect(chooseLocale('de', 'fr')).to.equal('de');
    expect(chooseLocale('pt-BR')).to.equal('pt');
    expect(chooseLocale(undefined, 'xx', 'nl-BE')).to.equal('nl');
    expect(chooseLocale('ja', 'zh')).to.equal('en');
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).to.deep.equal([
      'fr-CH',
      'fr',
      'en',
      'de',
    ]);
    expect(acceptedLanguages('en;q=0.1, pl')).to.deep.equal(['pl', 'en']);
  });

  it('fills in the placeholders', () => {
    expect(translate('de', 'payAmount', { amount: '19,99 EUR' })).to.equal('19,99 EUR bezahlen');
  });
});
