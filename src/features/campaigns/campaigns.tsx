import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useId, useState } from 'react';
import { createCampaign, deleteCampaign, listCampaigns, updateCampaign } from '../../api/campaigns.ts';
import { errorMessage } from '../../api/client.ts';
import { type Campaign, campaignTexts } from '../../contract/campaigns.ts';
import { can } from '../../contract/index.ts';
import { currentLevel } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field, TextAreaField } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { CompanyField } from '../match-request/company-field.tsx';
import {
  type CampaignDraft,
  checkDraft,
  type DraftErrors,
  dateText,
  draftOf,
  minMaxText,
  newDraft,
  ratioText,
} from './campaign-form.ts';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/**
 * The Campaigns screen (spec part 2, section 2; issue 12): the organization's matching campaigns
 * in a table, Add Campaign, and the Match Campaign dialog that creates, changes and deletes one.
 */
export function Campaigns() {
  useSignals();
  return (
    <OrganizationPage title={campaignTexts.heading} className="campaigns">
      {(organization) => (
        <CampaignTable
          organizationId={organization.id}
          canChange={can(currentLevel.value ?? 'none', 'campaigns.change')}
        />
      )}
    </OrganizationPage>
  );
}

function CampaignTable({ organizationId, canChange }: { organizationId: number; canChange: boolean }) {
  const [campaigns, setCampaigns] = useState<Campaign[] | null>(null);
  const [editing, setEditing] = useState<CampaignDraft | null>(null);

  const load = useCallback(async () => {
    try {
      setCampaigns(await listCampaigns(organizationId));
    } catch {
      // spec (section 8): "a failed list load shows an empty list".
      setCampaigns([]);
      toast({ title: 'Error', description: campaignTexts.loadFailed, variant: 'destructive' });
    }
  }, [organizationId]);
  useEffect(() => {
    void load();
  }, [load]);

  const open = (campaign: Campaign) => {
    if (canChange) setEditing(draftOf(campaign));
  };

  return (
    <div className="campaigns__body">
      <p className="campaigns__note">{campaignTexts.note}</p>
      {canChange ? (
        <div className="campaigns__toolbar">
          <Button onClick={() => setEditing(newDraft())} part="add-button">
            {campaignTexts.add}
          </Button>
        </div>
      ) : (
        <p className="muted">{campaignTexts.readOnly}</p>
      )}
      {campaigns === null ? (
        <Spinner label="Loading campaigns..." />
      ) : (
        // Scrolls sideways on a phone; a scrollable region must take focus so the keyboard can
        // scroll it too (axe: scrollable-region-focusable), as billing's bills table does.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        <section className="table-scroll" part="table" aria-label="Campaigns table" tabIndex={0}>
          <table className="campaigns__table">
            <caption className="visually-hidden">{campaignTexts.heading}</caption>
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Company</th>
                <th scope="col">Group Submit</th>
                <th scope="col">Bill Eligible</th>
                <th scope="col">Bill Processed</th>
                <th scope="col">Start Date</th>
                <th scope="col">End Date</th>
                <th scope="col">Min/Max</th>
                <th scope="col">Match Ratio</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.length === 0 ? (
                <tr>
                  <td colSpan={9} className="campaigns__empty">
                    {campaignTexts.empty}
                  </td>
                </tr>
              ) : (
                campaigns.map((c) => (
                  <tr
                    key={c.id}
                    className={canChange ? 'campaigns__row campaigns__row--editable' : 'campaigns__row'}
                    onClick={() => open(c)}
                  >
                    <th scope="row">
                      {canChange ? (
                        <button
                          type="button"
                          className="campaigns__open"
                          onClick={(event) => {
                            event.stopPropagation();
                            open(c);
                          }}
                        >
                          {c.name}
                        </button>
                      ) : (
                        c.name
                      )}
                    </th>
                    <td>{c.company_name}</td>
                    <td>{yesNo(c.group_submit)}</td>
                    <td>{yesNo(c.bill_eligible)}</td>
                    <td>{yesNo(c.bill_processed)}</td>
                    <td className="campaigns__nowrap">{dateText(c.start_date)}</td>
                    <td className="campaigns__nowrap">{dateText(c.end_date)}</td>
                    <td className="campaigns__nowrap">{minMaxText(c)}</td>
                    <td>{ratioText(c)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </section>
      )}
      <CampaignDialog
        organizationId={organizationId}
        draft={editing}
        onClose={() => setEditing(null)}
        onChanged={async () => {
          setEditing(null);
          await load();
        }}
      />
    </div>
  );
}

function CampaignDialog({
  organizationId,
  draft: initial,
  onClose,
  onChanged,
}: {
  organizationId: number;
  draft: CampaignDraft | null;
  onClose: () => void;
  onChanged: () => Promise<void>;
}) {
  const [draft, setDraft] = useState<CampaignDraft | null>(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const formId = useId();
  useEffect(() => {
    setDraft(initial);
    setErrors({});
    setServerError(null);
    setConfirming(false);
  }, [initial]);

  const set = <K extends keyof CampaignDraft>(key: K, value: CampaignDraft[K]) =>
    setDraft((d) => (d ? { ...d, [key]: value } : d));

  const submit = async () => {
    if (!draft) return;
    const checked = checkDraft(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setServerError(null);
    setBusy(true);
    try {
      if (draft.id === null) await createCampaign(organizationId, checked.body);
      else await updateCampaign(draft.id, checked.body);
      toast({ title: draft.id === null ? campaignTexts.created : campaignTexts.saved });
      await onChanged();
    } catch (error) {
      setServerError(errorMessage(error));
      toast({ title: 'Error', description: campaignTexts.saveFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (draft?.id == null) return;
    setBusy(true);
    try {
      await deleteCampaign(draft.id);
      setConfirming(false);
      toast({ title: campaignTexts.deleted });
      await onChanged();
    } catch {
      setConfirming(false);
      toast({ title: 'Error', description: campaignTexts.deleteFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Dialog open={initial !== null} onClose={onClose} title={campaignTexts.dialogTitle}>
        {draft ? (
          <form
            id={formId}
            className="campaigns__form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Field
              label="Campaign name"
              name="name"
              required
              maxLength={200}
              value={draft.name}
              error={errors.name}
              onChange={(event) => set('name', event.target.value)}
            />
            <CompanyField
              label="Company"
              hint="Type at least 3 characters, then choose the company from the catalogue."
              value={draft.company}
              error={errors.company}
              onChange={(company) => set('company', company)}
            />
            <div className="campaigns__pair">
              <Field
                label="Start date"
                name="start_date"
                type="date"
                required
                value={draft.start_date}
                error={errors.start_date}
                onChange={(event) => set('start_date', event.target.value)}
              />
              <Field
                label="End date"
                name="end_date"
                type="date"
                required
                value={draft.end_date}
                error={errors.end_date}
                onChange={(event) => set('end_date', event.target.value)}
              />
            </div>
            <div className="campaigns__pair">
              <Field
                label="Min"
                name="min_amount"
                inputMode="decimal"
                hint="Dollars; gifts below it keep the company's usual terms."
                value={draft.min_amount}
                error={errors.min_amount}
                onChange={(event) => set('min_amount', event.target.value)}
              />
              <Field
                label="Max"
                name="max_amount"
                inputMode="decimal"
                hint="Dollars; 0 means no maximum."
                value={draft.max_amount}
                error={errors.max_amount}
                onChange={(event) => set('max_amount', event.target.value)}
              />
            </div>
            <Field
              label="Match ratio"
              name="match_ratio"
              placeholder="2:1"
              hint="Such as 1:1, 2:1 or 1.5:1. Leave blank for the company's default."
              maxLength={20}
              value={draft.match_ratio}
              error={errors.match_ratio}
              onChange={(event) => set('match_ratio', event.target.value)}
            />
            <fieldset className="campaigns__flags">
              <legend>Options</legend>
              {(
                [
                  ['group_submit', 'Group Submit'],
                  ['bill_eligible', 'Bill Eligible'],
                  ['bill_processed', 'Bill Processed'],
                ] as const
              ).map(([key, label]) => (
                <label key={key} className="campaigns__check">
                  <input
                    type="checkbox"
                    name={key}
                    checked={draft[key]}
                    onChange={(event) => set(key, event.currentTarget.checked)}
                  />
                  <span>{label}</span>
                </label>
              ))}
            </fieldset>
            <TextAreaField
              label="Message"
              name="message"
              hint="Shown to donors in their emails (campaign_msg)."
              maxLength={2000}
              rows={3}
              value={draft.message}
              onChange={(event) => set('message', event.target.value)}
            />
            {serverError ? (
              <p className="campaigns__error" role="alert">
                {serverError}
              </p>
            ) : null}
            <div className="campaigns__actions">
              {draft.id !== null ? (
                <Button
                  type="button"
                  variant="destructive"
                  disabled={busy}
                  onClick={() => setConfirming(true)}
                  part="delete-button"
                >
                  {campaignTexts.delete}
                </Button>
              ) : (
                <Button type="button" variant="secondary" onClick={onClose}>
                  Cancel
                </Button>
              )}
              <Button type="submit" disabled={busy} part="submit-button">
                {draft.id === null ? campaignTexts.create : campaignTexts.save}
              </Button>
            </div>
          </form>
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={confirming}
        title="Delete campaign"
        description={campaignTexts.confirmDelete}
        confirmLabel="Delete campaign"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
