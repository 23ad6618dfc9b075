import { describe, expect, it } from 'vitest';
import { emptyOrganization, type Organization, toPartialQuery } from '../../contract/index.ts';
import {
  addDonationField,
  canEdit,
  diffForm,
  emailMinMessage,
  formFromOrganization,
  isDirty,
  tabFromQuery,
  validatePatch,
} from './organization-form.ts';

const hope: Organization = {
  ...emptyOrganization,
  id: 1,
  name: 'Hope Harbor Foundation',
  type: 'non-profit',
  phone: '(617) 555-0142',
  url: 'https://hopeharbor.example.org',
  mission: 'Shelter',
  country: 'US',
  address_id: 3,
  address: {
    id: 3,
    street: '120 Atlantic Avenue',
    street2: null,
    city: 'Boston',
    state: 'MA',
    zip: '02110',
    country: 'US',
  },
  category_id_array: [14, 1, 33],
  notify_contact: { name: 'Dana', email: 'dana@example.org' },
  custom: { donation_fields: ['In honor of'], theme: 'blue' },
  has_private_key: true,
};

describe('the Organization Details form', () => {
  it('is unchanged right after loading, so Save Changes starts disabled', () => {
    const form = formFromOrganization(hope);
    expect(diffForm(hope, form)).toEqual({});
    expect(isDirty(hope, form)).toBe(false);
  });

  it('sends only the changed field', () => {
    const form = { ...formFromOrganization(hope), phone: '(617) 555-0199' };
    expect(diffForm(hope, form)).toEqual({ phone: '(617) 555-0199' });
    expect(toPartialQuery(diffForm(hope, form) as never).toString()).toBe('phone=%28617%29+555-0199');
  });

  it('is clean again when an edit is typed back to the loaded value', () => {
    const form = { ...formFromOrganization(hope), name: 'Hope Harbor Foundation' };
    expect(isDirty(hope, form)).toBe(false);
  });

  it('sends the category list whole when one category changes, and ignores order', () => {
    const base = formFromOrganization(hope);
    expect(diffForm(hope, { ...base, category_id_array: [33, 14, 1] })).toEqual({});
    expect(diffForm(hope, { ...base, category_id_array: [1, 14, 33, 38] })).toEqual({
      category_id_array: [1, 14, 33, 38],
    });
  });

  it('sends custom whole, keeping its other keys, when the donation fields change', () => {
    const form = { ...formFromOrganization(hope), donation_fields: ['In honor of', 'Campaign'] };
    expect(diffForm(hope, form)).toEqual({
      custom: { donation_fields: ['In honor of', 'Campaign'], theme: 'blue' },
    });
  });

  it('sends the whole address (blank optional parts as null) when one part changes', () => {
    const base = formFromOrganization(hope);
    const form = { ...base, address: { ...base.address, city: 'Salem', zip: '' } };
    expect(diffForm(hope, form)).toEqual({
      address: {
        street: '120 Atlantic Avenue',
        street2: null,
        city: 'Salem',
        state: 'MA',
        zip: null,
        country: 'US',
      },
    });
  });

  it('sends the primary contact whole', () => {
    const base = formFromOrganization(hope);
    expect(diffForm(hope, { ...base, contact: { ...base.contact, phone: '555' } })).toEqual({
      notify_contact: { name: 'Dana', email: 'dana@example.org', phone: '555' },
    });
  });

  it('sends private_key null to delete the stored key, and a new key only when typed', () => {
    const base = formFromOrganization(hope);
    expect(diffForm(hope, { ...base, delete_private_key: true })).toEqual({ private_key: null });
    const none = { ...hope, has_private_key: false };
    expect(diffForm(none, { ...formFromOrganization(none), private_key: '  ' })).toEqual({});
    expect(diffForm(none, { ...formFromOrganization(none), private_key: 'sk_live_1' })).toEqual({
      private_key: 'sk_live_1',
    });
  });

  it('turns email_min into a number and rejects what is not a whole number of 0 or more', () => {
    const base = formFromOrganization(hope);
    expect(diffForm(hope, { ...base, email_min: '25' })).toEqual({ email_min: 25 });
    for (const bad of ['-1', '2.5', '']) {
      const result = validatePatch(diffForm(hope, { ...base, email_min: bad }));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.email_min).toBe(emailMinMessage);
    }
  });

  it("reports the contract's messages on the field they belong to", () => {
    const base = formFromOrganization(hope);
    const result = validatePatch(
      diffForm(hope, { ...base, name: '  ', address: { ...base.address, city: '' } }),
    );
    expect(result).toEqual({
      ok: false,
      errors: { name: 'Organization name is required', 'address.city': 'City is required' },
    });
  });

  it('trims what it sends', () => {
    const result = validatePatch(diffForm(hope, { ...formFromOrganization(hope), phone: ' 555-0100 ' }));
    expect(result).toEqual({ ok: true, patch: { phone: '555-0100' } });
  });
});

describe('who may change what', () => {
  it('lets write change details but only admins change settings and keys; read changes nothing', () => {
    expect(canEdit('write', 'phone')).toBe(true);
    expect(canEdit('write', 'email_who')).toBe(false);
    expect(canEdit('write', 'private_key')).toBe(false);
    expect(canEdit('admin', 'private_key')).toBe(true);
    expect(canEdit('read', 'phone')).toBe(false);
    expect(canEdit('none', 'name')).toBe(false);
  });
});

describe('the tab query parameter', () => {
  it('selects a known tab, and anything else is basic', () => {
    expect(tabFromQuery('users')).toBe('users');
    expect(tabFromQuery('files')).toBe('files');
    expect(tabFromQuery('audit')).toBe('audit');
    expect(tabFromQuery('nonsense')).toBe('basic');
    expect(tabFromQuery(null)).toBe('basic');
  });
});

describe('custom donation fields', () => {
  it('are trimmed, and empty or repeated entries are ignored', () => {
    expect(addDonationField(['A'], '  Campaign ')).toEqual(['A', 'Campaign']);
    expect(addDonationField(['A'], '   ')).toEqual(['A']);
    expect(addDonationField(['A'], 'A')).toEqual(['A']);
  });
});
