/**
 * `npm run generate -- --deals N --startups M --out DIR [--seed S]`: write a synthetic but
 * realistic content tree (same format and taxonomy as `content/`) for scale tests and the
 * benchmark. Deterministic for a given seed.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';
import { slugify } from '../src/schemas/slugify.ts';
import { seededRandom } from './seeded-random.ts';

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '5000' },
    startups: { type: 'string', default: '10000' },
    out: { type: 'string', default: 'bench-out/content' },
    seed: { type: 'string', default: '42' },
  },
});

const out = resolve(values.out);
const random = seededRandom(Number(values.seed));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const some = <T>(items: readonly T[], min: number, max: number): T[] => {
  const count = min + Math.floor(random() * (max - min + 1));
  return [...new Set(Array.from({ length: count }, () => pick(items)))];
};

const DEAL_CATEGORIES = [
  ['cloud-credits', 'Cloud credits', 'deals'],
  ['saas-discounts', 'SaaS discounts', 'deals'],
  ['ad-credits', 'Ad credits', 'deals'],
  ['developer-tools', 'Developer tools', 'deals'],
  ['ai-ml-credits', 'AI and ML credits', 'deals'],
  ['banking-finance', 'Banking and finance', 'deals'],
  ['legal', 'Legal', 'deals'],
  ['hiring', 'Hiring', 'deals'],
  ['analytics', 'Analytics', 'deals'],
  ['design', 'Design', 'deals'],
  ['accelerators', 'Accelerators', 'programs'],
  ['incubators', 'Incubators', 'programs'],
  ['grants', 'Grants', 'programs'],
] as const;
const STARTUP_CATEGORIES = ['saas', 'ecommerce', 'marketplace', 'content', 'mobile-app', 'ai', 'devtools', 'agency'];
const SOURCES = ['acquire', 'flippa', 'empire-flippers', 'microns', 'direct', 'broker'];
const COUNTRIES = ['US', 'GB', 'DE', 'CA', 'IN', 'AU', 'FR', 'NL', 'ES', 'BR', 'SE', 'SG', 'IE', 'PL', 'PT'];

const PREFIXES = [
  'Cloud',
  'Data',
  'Stack',
  'Pixel',
  'Nimbus',
  'Vector',
  'Quantum',
  'Signal',
  'Harbor',
  'Beacon',
  'Forge',
  'Orbit',
  'Atlas',
  'Nova',
  'Zen',
  'Bright',
  'Swift',
  'Lumen',
  'Cedar',
  'Delta',
  'Echo',
  'Flux',
  'Granite',
  'Helix',
  'Iris',
  'Juniper',
  'Kite',
  'Loom',
  'Maple',
  'Nimble',
  'Onyx',
  'Prism',
  'Quill',
  'Ridge',
  'Summit',
  'Tidal',
  'Umbra',
  'Vault',
  'Willow',
  'Yield',
];
const SUFFIXES = ['ly', 'io', 'base', 'hub', 'works', 'stack', 'labs', 'flow', 'desk', 'kit', 'grid', 'scale', 'pay', 'mail', 'docs', 'form', 'sign', 'ops', 'bank', 'hire'];
const PRODUCTS = [
  'credits',
  'startup plan',
  'pro plan',
  'growth plan',
  'team plan',
  'enterprise trial',
  'compute credits',
  'API credits',
  'seat discount',
  'annual discount',
  'founder program',
  'partner perk',
  'launch bundle',
  'scale-up offer',
];
const WORDS =
  `analytics automation backend billing browser campaign checkout cluster compliance container conversion crm dashboard database deployment design developer devops discount domain email encryption endpoint experiment feedback firewall founder funding gateway growth hosting identity incident inference infrastructure insights integration invoice kubernetes latency ledger logging machine marketing metrics migration mobile monitoring notebook observability onboarding payroll payments pipeline platform postgres pricing privacy product prototype queue recruiting redis referral retention revenue roadmap runtime saas security serverless sketch storage subscription support survey talent testing tracing training translation uptime vector video webhook workflow workspace accounting advertising agent benchmark bookkeeping branding calendar catalog chatbot cohort collaboration contract copywriting customer dataset editor embedding equity forecasting gpu incorporation interview ledger legal llm localization mentor model newsletter pitch portfolio prompt reporting research sales scheduling seed spreadsheet startup tax template trademark wireframe accelerator grant incubator investor demo mentorship cohort-based nondilutive program residency stipend venture`.split(
    /\s+/,
  );
const BENEFITS = [
  'free for the first year',
  'up to $5,000 in credits',
  '50% off for twelve months',
  '90 days free',
  'up to $100,000 in credits',
  '30% off annual plans',
  'three months free',
  '$25,000 in credits',
  'free seats for early teams',
  '20% lifetime discount',
];
const ELIGIBILITY = [
  'Founded in the last five years',
  'Raised less than $5M',
  'Not an existing paying customer',
  'Affiliated with a partner accelerator',
  'Fewer than 50 employees',
  'Company website and work email',
  'Pre-seed to Series A',
];
const REQUIREMENTS = ['Company website', 'Work email address', 'Incorporated company', 'Pitch deck', 'Partner referral code', 'LinkedIn profile of a founder'];

const sentence = (): string => {
  const words = some(WORDS, 6, 14);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
};
const paragraph = (n: number): string => Array.from({ length: n }, sentence).join(' ');
const date = (fromYear: number, toYear: number): string => {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear, 10, 20);
  return new Date(start + random() * (end - start)).toISOString().slice(0, 10);
};
const id = (prefix: string, n: number): string => `${prefix}-${((n * 2654435761) % 2 ** 32).toString(36).padStart(7, '0')}${n.toString(36)}`;
const frontMatter = (data: Record<string, unknown>, body: string): string => `---\n${yaml.dump(data)}---\n${body}\n`;

await rm(out, { recursive: true, force: true });
await mkdir(join(out, 'deals'), { recursive: true });
await mkdir(join(out, 'startups'), { recursive: true });
await writeFile(
  join(out, 'categories.yaml'),
  yaml.dump({
    deals: DEAL_CATEGORIES.map(([slug, name, scope]) => ({ slug, name, scope, description: `${name} for startups.` })),
    startups: STARTUP_CATEGORIES.map((slug) => ({ slug, name: slug.replace('-', ' ') })),
    sources: SOURCES.map((slug) => ({ slug, name: slug.replace('-', ' ') })),
  }),
);
await writeFile(join(out, 'site.yaml'), yaml.dump({ name: 'Synthetic Deals', baseUrl: 'http://localhost:4321', description: 'A synthetic catalog for scale tests.' }));

const dealCount = Number(values.deals);
for (let start = 0; start < dealCount; start += 500) {
  await Promise.all(
    Array.from({ length: Math.min(500, dealCount - start) }, (_, k) => {
      const n = start + k + 1;
      const provider = `${pick(PREFIXES)}${pick(SUFFIXES)}`;
      const [category] = random() < 0.15 ? pick(DEAL_CATEGORIES.slice(10)) : pick(DEAL_CATEGORIES.slice(0, 10));
      const title = `${provider} ${pick(PRODUCTS)}`;
      const roll = random();
      const status = roll < 0.7 ? 'active' : roll < 0.8 ? 'limited' : roll < 0.88 ? 'coming-soon' : 'expired';
      const data: Record<string, unknown> = {
        id: id('d', n),
        title,
        provider,
        category,
        shortDescription: `${provider}: ${pick(BENEFITS)} for ${pick(WORDS)} teams.`,
        value: pick(BENEFITS),
        eligibility: some(ELIGIBILITY, 1, 3),
        requirements: some(REQUIREMENTS, 1, 3),
        tags: some(WORDS, 2, 5),
        status,
        ...(status === 'expired' ? { expiryDate: date(2024, 2025) } : random() < 0.4 ? { expiryDate: date(2027, 2028) } : {}),
        applicationUrl: `https://${slugify(provider)}.example.com/startups`,
        providerWebsite: `https://${slugify(provider)}.example.com`,
        featured: random() < 0.03,
        recommended: random() < 0.1,
        verified: random() < 0.8,
        difficulty: pick(['easy', 'medium', 'hard']),
        timeToApply: pick(['10 minutes', '1 hour', '1-2 days', '1-2 weeks']),
        lastUpdated: date(2025, 2026),
      };
      return writeFile(join(out, 'deals', `${slugify(title)}-${n}.md`), frontMatter(data, `${paragraph(3)}\n\n${paragraph(2)}`));
    }),
  );
}

const startupCount = Number(values.startups);
for (let start = 0; start < startupCount; start += 500) {
  await Promise.all(
    Array.from({ length: Math.min(500, startupCount - start) }, (_, k) => {
      const n = start + k + 1;
      const name = `${pick(PREFIXES)}${pick(SUFFIXES)}`;
      const revenue = Math.floor(random() * 2_000_000);
      const askingPrice = Math.floor(revenue * (1 + random() * 4));
      const data = {
        id: id('s', n),
        name,
        category: pick(STARTUP_CATEGORIES),
        revenue,
        revenueDisplay: `$${Math.round(revenue / 1000)}k ARR`,
        askingPrice,
        askingPriceDisplay: `$${Math.round(askingPrice / 1000)}k`,
        website: `https://${slugify(name)}-${n}.example.com`,
        country: pick(COUNTRIES),
        source: pick(SOURCES),
        featured: random() < 0.03,
        forSale: random() < 0.9,
        lastUpdated: date(2025, 2026),
      };
      return writeFile(join(out, 'startups', `${slugify(name)}-${n}.md`), frontMatter(data, paragraph(3)));
    }),
  );
}
console.error(`wrote ${dealCount} deals and ${startupCount} startups to ${out}`);

// --- internal ---
