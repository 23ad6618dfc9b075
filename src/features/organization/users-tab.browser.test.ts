import './users-tab-test-session.ts';
import '../../../dist/elements/twofold-organization-details.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  fill,
  input,
  jsonResponse,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { emptyOrganization } from '../../contract/organization.ts';
import { orgId } from '../donations/donations-test-support.ts';

const me = {
  id: 1,
  email: 'admin@twofold.test',
  name: 'Alex Morgan',
  globalPermission: false,
  orgs: [{ id: orgId, name: 'Hope Harbor Foundation' }],
};
const admin = { id: 1, name: 'Alex Morgan', email: 'admin@twofold.test', level: 'admin', editable: true };
const shared = { id: 2, name: 'Riley Chen', email: 'reader@twofold.test', level: 'read', editable: false };
const invited = {
  id: 3,
  name: 'Wren Castillo',
  email: 'writer@twofold.test',
  level: 'write',
  pending: true,
  editable: false,
};

function server(users: object[], answer: (path: string, method: string, body: unknown) => Response | null) {
  return mockApi((call) => {
    if (call.path === '/api/common') return jsonResponse(200, me);
    if (call.path === `/api/organization/${orgId}`)
      return jsonResponse(200, {
        organization: { ...emptyOrganization, id: orgId, name: 'Hope Harbor Foundation', users },
        accessibleOrganizations: [
          { id: orgId, name: 'Hope Harbor Foundation', parent_id: null, file_logo: null },
        ],
        level: 'admin',
      });
    return answer(call.path, call.method, call.body) ?? jsonResponse(404, { message: 'Not found' });
  });
}

async function usersTab() {
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-organization-details', { tab: 'users' });
  const root = el.shadowRoot as ShadowRoot;
  await waitFor(() => byText(root, 'riley chen') ?? byText(root, 'Riley Chen'), 'the users table');
  return { root, toasts: toaster.shadowRoot as ShadowRoot, el };
}

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-organization-details, twofold-toaster')) el.remove();
});

describe('<twofold-organization-details> users tab', () => {
  it('shows an invited account as pending, with Resend and Cancel invitation', async () => {
    const seen = server([admin, shared, invited], (path, method) =>
      path === '/api/user/invitation' && method === 'DELETE'
        ? jsonResponse(200, { users: [admin, shared] })
        : null,
    );
    const { root, toasts, el } = await usersTab();
    const row = byText(root, 'writer@twofold.test')?.closest('tr');
    assert(row, 'the invited row');
    assert(byText(row, 'Pending'), 'marked Pending');
    assert(!button(row, 'Edit'), 'no Edit before they accept');
    assert(button(row, 'Resend'), 'Resend');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
    button(row, 'Cancel invitation')?.click();
    await waitFor(() => byText(toasts, 'Invitation cancelled'), 'the toast');
    await waitFor(() => !byText(root, 'writer@twofold.test'), 'the row gone');
    const cancel = seen.find((c) => c.path === '/api/user/invitation');
    assertEqual(cancel?.method, 'DELETE', 'method');
    assertEqual(JSON.stringify(cancel?.body), JSON.stringify({ org_id: orgId, user_id: 3 }), 'body');
  });

  it("keeps another organization's member's name and email read-only, and saves only the level", async () => {
    const seen = server([admin, shared], (path) =>
      path === '/api/user/permission'
        ? jsonResponse(200, { users: [admin, { ...shared, level: 'write' }] })
        : null,
    );
    const { root, toasts } = await usersTab();
    button(root, 'Edit reader@twofold.test')?.click();
    const name = await waitFor(() => input(root, 'Name') as HTMLInputElement | null, 'the edit form');
    assert(name.readOnly, 'name read-only');
    assert((input(root, 'Email') as HTMLInputElement).readOnly, 'email read-only');
    const why = byText(
      root,
      'This account also belongs to other organizations or is a super user’s, so only its owner can change its name and email.',
    );
    assert(why, 'the explanation');
    assertEqual(name.getAttribute('aria-describedby'), why.id, 'the name field is described by it');
    const level = root.querySelector<HTMLSelectElement>('select[name="user_level"]');
    if (!level) throw new Error('no level select');
    level.value = 'write';
    level.dispatchEvent(new Event('change', { bubbles: true }));
    button(root, 'Save')?.click();
    await waitFor(() => byText(toasts, 'User updated successfully'), 'the toast');
    assertEqual(seen.filter((c) => c.method === 'PUT').length, 0, 'no name or email change sent');
    assertEqual(seen.filter((c) => c.path === '/api/user/permission').length, 1, 'the level change');
  });

  it('says an existing account was invited, not added', async () => {
    server([admin], (path) =>
      path === '/api/user/permission' ? jsonResponse(200, { users: [admin, invited] }) : null,
    );
    const { root, toasts } = await usersTab();
    const email = root.querySelector<HTMLInputElement>('input[name="new_user_email"]');
    if (!email) throw new Error('no Email field in Add User');
    fill(email, 'Writer@twofold.test');
    button(root, 'Add User')?.click();
    await waitFor(() => byText(toasts, 'Invitation sent'), 'the invitation toast');
    assert(!byText(toasts, 'User added successfully'), 'not "added"');
  });
});
