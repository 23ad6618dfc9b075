import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import {
  exportCatalogue,
  getCompany,
  importCatalogue,
  listCompanies,
  listSuggestions,
  reviewSuggestion,
  saveCompany,
} from '../../api/company-admin.ts';
import { categories } from '../../contract/categories.ts';
import { deadlineRules, matchMethods, programStates, verifyMethods } from '../../contract/companies.ts';
import {
  type CompanyDetail,
  type CompanyList,
  type CompanySuggestion,
  type CompanyWithHistory,
  type ProgrammeField,
  programmeFieldLabels,
  programmeProblem,
} from '../../contract/company-admin.ts';
import {
  deadlineLabel,
  dollarsLabel,
  methodLabel,
  programLabel,
  ratioLabel,
  verifyLabel,
} from '../../contract/company-lookup.ts';
import { initSession, isSuperUser } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field, SelectField, TextAreaField } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { fromForm, type ProgrammeForm, shownValue, toForm } from './programme-form.ts';

/** spec (part 2, section 9): "Filter changes debounce 300 ms and reset the page to 1." */
const searchDelay = 300;

export const companiesTexts = {
  title: 'Companies',
  note: 'The employers whose matching gift programmes Twofold knows. Super users keep them up to date; staff suggest corrections from a match.',
  search: 'Search companies',
  loading: 'Loading companies...',
  none: 'No companies found',
  readOnly: 'Only super users change a company. Suggest a correction from a match instead.',
  save: 'Save',
  saved: 'Company saved',
  history: 'History',
  noHistory: 'No changes yet.',
  queue: 'Suggested corrections',
  queueEmpty: 'No suggestions waiting for review.',
  categories: 'Company categories',
} as const;

const options = (values: readonly string[], label: (v: string) => string = (v) => v) =>
  values.map((value) => ({ value, label: label(value) }));

/**
 * The Companies screen (spec part 2, section 2: "/portal/companies"): the catalogue searched and
 * paged, the company detail dialog (saved by super users, read-only for everyone else) with its
 * history, the super users' queue of suggested corrections, and the 42 categories.
 */
export function Companies() {
  useSignals();
  useEffect(() => {
    void initSession();
  }, []);
  const [term, setTerm] = useState('');
  const [query, setQuery] = useState({ q: '', page: 1 });
  const [list, setList] = useState<CompanyList | null>(null);
  const [loading, setLoading] = useState(true);
  const [openId, setOpenId] = useState<number | null>(null);
  const superUser = isSuperUser.value;

  useEffect(() => {
    const timer = setTimeout(
      () => setQuery((current) => (current.q === term ? current : { q: term, page: 1 })),
      searchDelay,
    );
    return () => clearTimeout(timer);
  }, [term]);

  const load = useCallback(() => {
    let current = true;
    setLoading(true);
    listCompanies(query.q, query.page).then(
      (found) => {
        if (!current) return;
        setList(found);
        setLoading(false);
      },
      (error) => {
        if (!current) return;
        // spec (section 8): "a failed list load shows an empty list".
        setList({ companies: [], total: 0, page: query.page, per_page: 25 });
        setLoading(false);
        toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
      },
    );
    return () => {
      current = false;
    };
  }, [query]);
  useEffect(load, [load]);

  const pages = list ? Math.max(1, Math.ceil(list.total / list.per_page)) : 1;
  return (
    <section className="companies" aria-labelledby="companies-title">
      <header className="companies__header">
        <h1 id="companies-title" className="companies__title">
          {companiesTexts.title}
        </h1>
        <p className="muted">{companiesTexts.note}</p>
      </header>
      {superUser ? <SuggestionQueue onApplied={load} /> : null}
      {superUser ? <CatalogueFile onImported={load} /> : null}
      <Field
        label={companiesTexts.search}
        type="search"
        name="company-search"
        value={term}
        maxLength={200}
        onChange={(event) => setTerm(event.target.value)}
      />
      <p className="companies__count" aria-live="polite">
        {list ? `${list.total} Found` : ''}
      </p>
      <div className="table-scroll card-table-wrap">
        <table className="companies__table card-table">
          <caption className="visually-hidden">
            Companies, page {query.page} of {pages}
          </caption>
          <thead>
            <tr>
              <th scope="col">Company</th>
              <th scope="col">Program</th>
              <th scope="col">Method</th>
              <th scope="col">Ratio</th>
              <th scope="col">Min/Max</th>
            </tr>
          </thead>
          <tbody>
            {loading && !list ? (
              <tr>
                <td colSpan={5}>{companiesTexts.loading}</td>
              </tr>
            ) : list?.companies.length ? (
              list.companies.map((company) => (
                <tr key={company.id}>
                  <td data-label="Company">
                    <Button variant="link" onClick={() => setOpenId(company.id)}>
                      {company.name}
                    </Button>
                  </td>
                  <td data-label="Program">{programLabel(company.program)}</td>
                  <td data-label="Method">{methodLabel(company.match_method)}</td>
                  <td data-label="Ratio">{ratioLabel(company.match_ratio)}</td>
                  <td data-label="Min/Max">{minMax(company)}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={5}>{companiesTexts.none}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav className="companies__pages" aria-label="Pages">
        <Button
          variant="secondary"
          disabled={query.page <= 1}
          onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}
        >
          Previous
        </Button>
        <span>
          Page {query.page} of {pages}
        </span>
        <Button
          variant="secondary"
          disabled={query.page >= pages}
          onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}
        >
          Next
        </Button>
      </nav>
      <details className="companies__categories">
        <summary>
          {companiesTexts.categories} ({categories.length})
        </summary>
        <ul>
          {categories.map((c) => (
            <li key={c.id}>
              {c.id} {c.name}
            </li>
          ))}
        </ul>
      </details>
      {openId !== null ? (
        <CompanyDialog
          // One dialog per company: another company never shows the last one's form while loading.
          key={openId}
          id={openId}
          editable={superUser}
          onClose={() => setOpenId(null)}
          onSaved={(saved) =>
            setList((l) => l && { ...l, companies: l.companies.map((c) => (c.id === saved.id ? saved : c)) })
          }
        />
      ) : null}
    </section>
  );
}

function minMax(company: CompanyDetail): string {
  const min = company.minimum_match_cents === null ? '—' : dollarsLabel(company.minimum_match_cents);
  const max = company.maximum_match_cents === null ? '—' : dollarsLabel(company.maximum_match_cents);
  return `${min} / ${max}`;
}

/** The company detail dialog: the programme (editable by super users) and its history. */
function CompanyDialog({
  id,
  editable,
  onClose,
  onSaved,
}: {
  id: number;
  editable: boolean;
  onClose: () => void;
  onSaved: (company: CompanyDetail) => void;
}) {
  const [data, setData] = useState<CompanyWithHistory | null>(null);
  const [form, setForm] = useState<ProgrammeForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    getCompany(id).then(
      (found) => {
        if (!current) return;
        setData(found);
        setForm(toForm(found.company));
      },
      (error) => current && setLoadError(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [id]);

  const set = <K extends keyof ProgrammeForm>(key: K, value: ProgrammeForm[K]) =>
    setForm((f) => f && { ...f, [key]: value });

  const save = async () => {
    if (!form) return;
    const parsed = fromForm(form);
    if (parsed.errors) {
      setErrors(parsed.errors);
      return;
    }
    const problem = programmeProblem(parsed.programme);
    setErrors({});
    setFormError(problem ?? null);
    if (problem) return;
    setSaving(true);
    try {
      const saved = await saveCompany(id, parsed.programme);
      setData(saved);
      setForm(toForm(saved.company));
      onSaved(saved.company);
      toast({ title: companiesTexts.saved });
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const readOnly = !editable;
  return (
    <Dialog
      open
      onClose={onClose}
      title={data?.company.name ?? 'Company'}
      description={readOnly ? companiesTexts.readOnly : undefined}
    >
      {loadError ? <p role="alert">{loadError}</p> : null}
      {!form || !data ? (
        loadError ? null : (
          <Spinner label="Loading company..." />
        )
      ) : (
        <form
          className={`company-form${readOnly ? ' company-form--read-only' : ''}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (editable) void save();
          }}
        >
          <div className="company-form__grid">
            <SelectField
              label="Program"
              value={form.program}
              disabled={readOnly}
              options={options(programStates, programLabel)}
              onChange={(e) => set('program', e.target.value)}
            />
            <SelectField
              label="Method"
              value={form.match_method}
              disabled={readOnly}
              placeholder="Not known"
              options={options(matchMethods, methodLabel)}
              onChange={(e) => set('match_method', e.target.value)}
            />
            <SelectField
              label="Verify"
              value={form.verify}
              disabled={readOnly}
              placeholder="Not known"
              options={options(verifyMethods, verifyLabel)}
              onChange={(e) => set('verify', e.target.value)}
            />
            <Field
              label="Ratio"
              hint="Company dollars per donor dollar: 1, 2, 0.5 (or 2:1)"
              value={form.match_ratio}
              readOnly={readOnly}
              error={errors.match_ratio}
              onChange={(e) => set('match_ratio', e.target.value)}
            />
            <Field
              label="Min"
              hint="Dollars; blank for none"
              inputMode="decimal"
              value={form.minimum}
              readOnly={readOnly}
              error={errors.minimum}
              onChange={(e) => set('minimum', e.target.value)}
            />
            <Field
              label="Max"
              hint="Dollars; blank for none"
              inputMode="decimal"
              value={form.maximum}
              readOnly={readOnly}
              error={errors.maximum}
              onChange={(e) => set('maximum', e.target.value)}
            />
            <SelectField
              label="Deadline rule"
              value={form.deadline_rule}
              disabled={readOnly}
              options={options(deadlineRules, (rule) => deadlineLabel(rule, null))}
              onChange={(e) => set('deadline_rule', e.target.value)}
            />
            {form.deadline_rule === 'days-after-gift' ? (
              <Field
                label="Deadline days"
                inputMode="numeric"
                value={form.deadline_days}
                readOnly={readOnly}
                error={errors.deadline_days}
                onChange={(e) => set('deadline_days', e.target.value)}
              />
            ) : null}
            <Field
              label="CSR vendor"
              value={form.csr_vendor}
              readOnly={readOnly}
              maxLength={100}
              onChange={(e) => set('csr_vendor', e.target.value)}
            />
            <Field
              label="URL"
              type="url"
              value={form.url}
              readOnly={readOnly}
              maxLength={500}
              onChange={(e) => set('url', e.target.value)}
            />
          </div>
          <div className="company-form__grid">
            <Field
              label="Forms email"
              type="email"
              hint="Signed forms are emailed here once countersigned."
              value={form.forms_email}
              readOnly={readOnly}
              maxLength={254}
              onChange={(e) => set('forms_email', e.target.value)}
            />
            <TextAreaField
              label="Forms mailing address"
              hint="Printed on the cover letter of original-signature packets."
              value={form.forms_address}
              readOnly={readOnly}
              maxLength={1000}
              rows={3}
              onChange={(e) => set('forms_address', e.target.value)}
            />
          </div>
          <TextAreaField
            label="Guide"
            value={form.guide}
            readOnly={readOnly}
            maxLength={4000}
            rows={3}
            onChange={(e) => set('guide', e.target.value)}
          />
          <div className="company-form__grid">
            <TextAreaField
              label="Email domains"
              hint="One a line, e.g. acme-analytics.example.com: its subdomains count too. Never a free-mail domain."
              value={form.domains}
              readOnly={readOnly}
              rows={3}
              onChange={(e) => set('domains', e.target.value)}
            />
            <TextAreaField
              label="Aliases"
              hint="Other names and abbreviations, one a line (e.g. AA Bank)."
              value={form.aliases}
              readOnly={readOnly}
              rows={3}
              onChange={(e) => set('aliases', e.target.value)}
            />
            <Field
              label="Parent company ID"
              hint="A subsidiary whose staff the parent's program matches; blank for none."
              inputMode="numeric"
              value={form.parent_id}
              readOnly={readOnly}
              error={errors.parent_id}
              onChange={(e) => set('parent_id', e.target.value)}
            />
          </div>
          <fieldset className="company-form__categories" disabled={readOnly}>
            <legend>Categories</legend>
            {categories.map((c) => (
              <label key={c.id} className="company-form__category">
                <input
                  type="checkbox"
                  checked={form.categories.includes(c.id)}
                  onChange={(e) =>
                    set(
                      'categories',
                      e.target.checked
                        ? [...form.categories, c.id]
                        : form.categories.filter((x) => x !== c.id),
                    )
                  }
                />
                {c.name}
              </label>
            ))}
          </fieldset>
          {formError ? (
            <p className="field__error" role="alert">
              {formError}
            </p>
          ) : null}
          {editable ? (
            <div className="company-form__actions">
              <Button type="submit" disabled={saving}>
                {saving ? 'Saving...' : companiesTexts.save}
              </Button>
            </div>
          ) : null}
          <History history={data.history} />
        </form>
      )}
    </Dialog>
  );
}

const fieldLabel = (field: string) => programmeFieldLabels[field as ProgrammeField] ?? field;

function History({ history }: { history: CompanyWithHistory['history'] }) {
  const headingId = useId();
  return (
    <section className="company-history" aria-labelledby={headingId}>
      <h3 id={headingId}>{companiesTexts.history}</h3>
      {history.length === 0 ? (
        <p className="muted">{companiesTexts.noHistory}</p>
      ) : (
        <ol className="company-history__list">
          {history.map((entry) => (
            <li key={entry.id}>
              <p className="company-history__who">
                {entry.user?.name ?? entry.user?.email ?? 'A removed user'},{' '}
                <time dateTime={entry.created_at}>{new Date(entry.created_at).toLocaleString()}</time>
                {entry.suggestion_id ? ' (accepted suggestion)' : ''}
              </p>
              <ul>
                {entry.changes.map((change) => (
                  <li key={change.field}>
                    {fieldLabel(change.field)}: {shownValue(change.field, change.from)} →{' '}
                    {shownValue(change.field, change.to)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The super users' review queue: accept applies the suggestion (with history), reject keeps a note. */
function SuggestionQueue({ onApplied }: { onApplied: () => void }) {
  const [suggestions, setSuggestions] = useState<CompanySuggestion[] | null>(null);
  const [notes, setNotes] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState<number | null>(null);
  const headingId = useId();

  useEffect(() => {
    let current = true;
    listSuggestions().then(
      (found) => current && setSuggestions(found),
      (error) => {
        if (!current) return;
        setSuggestions([]);
        toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const review = async (suggestion: CompanySuggestion, verdict: 'accept' | 'reject') => {
    setBusy(suggestion.id);
    try {
      const { message } = await reviewSuggestion(suggestion.id, verdict, notes[suggestion.id] ?? '');
      setSuggestions((list) => list?.filter((s) => s.id !== suggestion.id) ?? null);
      toast({ title: message });
      if (verdict === 'accept') onApplied();
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="companies__queue" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {companiesTexts.queue}
        {suggestions?.length ? ` (${suggestions.length})` : ''}
      </h2>
      {suggestions === null ? (
        <Spinner label="Loading suggestions..." />
      ) : suggestions.length === 0 ? (
        <p className="muted">{companiesTexts.queueEmpty}</p>
      ) : (
        <ul className="companies__suggestions">
          {suggestions.map((s) => (
            <li key={s.id} className="companies__suggestion">
              <p>
                <strong>{s.company.name}</strong>, suggested by{' '}
                {s.user?.name ?? s.user?.email ?? 'a removed user'} on{' '}
                <time dateTime={s.created_at}>{new Date(s.created_at).toLocaleDateString()}</time>
              </p>
              <ul>
                {Object.entries(s.proposed).map(([field, value]) => (
                  <li key={field}>
                    {fieldLabel(field)}: {shownValue(field, s.current[field])} →{' '}
                    <strong>{shownValue(field, value)}</strong>
                  </li>
                ))}
              </ul>
              {s.note ? <p className="companies__note">“{s.note}”</p> : null}
              <Field
                label={`Review note for ${s.company.name}`}
                value={notes[s.id] ?? ''}
                maxLength={2000}
                onChange={(e) => {
                  // Read now, not in the updater, which may run after the event is done.
                  const value = e.target.value;
                  setNotes((n) => ({ ...n, [s.id]: value }));
                }}
              />
              <div className="companies__review">
                <Button disabled={busy === s.id} onClick={() => void review(s, 'accept')}>
                  Accept
                </Button>
                <Button variant="secondary" disabled={busy === s.id} onClick={() => void review(s, 'reject')}>
                  Reject
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Issue 31: the catalogue as a CSV or XLSX file (super users), the same columns both ways
 * (docs/companies-catalogue.md); an import writes nothing unless every row is valid.
 */
function CatalogueFile({ onImported }: { onImported: () => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState('');
  const save = async (format: 'csv' | 'xlsx') => {
    try {
      const blob = await exportCatalogue(format);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `companies.${format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const r = await importCatalogue(file);
      setOutcome(`Catalogue imported: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged.`);
      onImported();
    } catch (error) {
      setOutcome(errorMessage(error));
    } finally {
      setBusy(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };
  return (
    <section className="companies__catalogue-file" aria-label="Catalogue file">
      <Button variant="secondary" onClick={() => void save('csv')}>
        Export CSV
      </Button>
      <Button variant="secondary" onClick={() => void save('xlsx')}>
        Export XLSX
      </Button>
      <label className="companies__catalogue-import">
        Import a catalogue file (CSV or XLSX)
        <input
          ref={fileInput}
          type="file"
          accept=".csv,.xlsx,.xls"
          disabled={busy}
          onChange={(e) => void upload(e.currentTarget.files?.[0])}
        />
      </label>
      <p role="status" className="companies__catalogue-outcome">
        {outcome}
      </p>
    </section>
  );
}
