import { expect } from 'chai';
import {
  acceptedLanguages,
  CATALOGS,
  chooseLocale,
  translate,
  type Message,
  type MessageKey,
} from '../../../packages/client-side/i18n/index.ts';

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort();

/** The forms of a message: the message itself, or each form of a plural one. */
const formsOf = (message: Message): Array<[string, string]> =>
  typeof message === 'string' ? [['', message]] : Object.entries(message);

/** The plural categories a language gives the whole numbers a payer may read (0 to 1000). */
function categoriesOf(locale: string): string[] {
  const rules = new Intl.PluralRules(locale);
  return [...new Set(Array.from({ length: 1001 }, (_, count) => rules.select(count)))].sort();
}

describe('message catalogs of the payer-facing pages', () => {
  const reference = CATALOGS.en;
  const keys = Object.keys(reference) as MessageKey[];

  it('has at least English, German, French, Spanish, Italian, Polish, Portuguese and Dutch', () => {
    expect(Object.keys(CATALOGS)).to.include.members(['en', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'nl']);
  });

  for (const [locale, catalog] of Object.entries(CATALOGS))
    it(`${locale}: every key of English, no other, each non-empty with the same placeholders, plural where English is`, () => {
      expect(Object.keys(catalog).sort()).to.deep.equal([...keys].sort());
      for (const key of keys) {
        const message = (catalog as Record<string, Message>)[key]!;
        const english = reference[key] as Message;
        expect(typeof message, `${locale}.${key}`).to.equal(typeof english);
        if (typeof english !== 'string') {
          // A form for every category the language uses for whole numbers, and for no other.
          const forms = Object.keys(message).filter((category) => category !== 'other');
          expect(forms.sort(), `${locale}.${key}`).to.deep.equal(categoriesOf(locale).filter((c) => c !== 'other'));
        }
        for (const [form, text] of formsOf(message)) {
          expect(text.trim(), `${locale}.${key}.${form}`).not.to.equal('');
          // A form for exactly one number may write the number out; every other form names it.
          const expected = placeholders(typeof english === 'string' ? english : english.other);
          const found = placeholders(text);
          if (form === 'one') expect(expected, `${locale}.${key}.${form}`).to.include.members(found);
          else expect(found, `${locale}.${key}.${form}`).to.deep.equal(expected);
        }
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

  it("chooses the plural form of the count in the language's plural rules", () => {
    const price = (locale: 'en' | 'de' | 'pl' | 'fr', count: number) =>
      translate(locale, 'everyMonth', { amount: 'X', count });
    expect([1, 3].map((count) => price('en', count))).to.deep.equal(['X / month', 'X every 3 months']);
    expect([1, 3].map((count) => price('de', count))).to.deep.equal(['X / Monat', 'X alle 3 Monate']);
    expect([1, 2, 5, 12, 22, 25].map((count) => price('pl', count))).to.deep.equal([
      'X / miesiąc',
      'X co 2 miesiące',
      'X co 5 miesięcy',
      'X co 12 miesięcy',
      'X co 22 miesiące',
      'X co 25 miesięcy',
    ]);
    expect(translate('pl', 'trial', { count: 1 })).to.include('1 dzień');
    expect(translate('pl', 'trial', { count: 14 })).to.include('14 dni');
    expect(translate('fr', 'everyWeek', { amount: 'X', count: 2 })).to.equal('X toutes les 2 semaines');
    // A category a catalog has no form for (French "many", for millions) takes the `other` form.
    expect(new Intl.PluralRules('fr').select(1_000_000)).to.equal('many');
    expect(translate('fr', 'everyWeek', { amount: 'X', count: 1_000_000 })).to.equal('X toutes les 1000000 semaines');
  });
});
