import { UnavailableError } from '@forum/platform';
import type { IdentityAdmin } from './port.ts';

/** A service account's access token (OAuth client credentials), taken again shortly before it expires. */
export function clientCredentialsToken(options: { tokenUrl: string; clientId: string; clientSecret: string }): () => Promise<string> {
  let kept: { token: string; until: number } | null = null;
  return async () => {
    if (kept && Date.now() < kept.until) return kept.token;
    const response = await fetch(options.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!response.ok || !body.access_token) throw new Error(`the identity provider gave no service-account token (${response.status})`);
    kept = { token: body.access_token, until: Date.now() + Math.max(0, (body.expires_in ?? 60) - 30) * 1000 };
    return body.access_token;
  };
}

/**
 * Keycloak's admin REST API for one realm (`adminUrl`: …/admin/realms/<realm>), which the embedded
 * realm offers too: GET {adminUrl}/users?email=…&exact=true, the accounts with that address;
 * DELETE {adminUrl}/users/{id}, 204 when removed, 404 when not there; GET then PUT {adminUrl}/users/{id}
 * with the whole representation and its attribute `handle` changed (a PUT's `attributes` replace them all);
 * GET {adminUrl}/users/{id}/role-mappings/realm/available (or …/realm), then POST (or DELETE)
 * {adminUrl}/users/{id}/role-mappings/realm with the role `moderator` found there, to give (or take)
 * it; not found there: it has it already (or not); 404: the account is not there.
 * GET {adminUrl}/users/{id} for its `emailVerified` (404: no such account).
 */
export function keycloakIdentityAdmin(options: { adminUrl: string; token: () => Promise<string> }): IdentityAdmin {
  const base = options.adminUrl.replace(/\/+$/, '');
  return {
    async accountsByEmail(email) {
      const response = await fetch(`${base}/users?${new URLSearchParams({ email, exact: 'true', briefRepresentation: 'true' }).toString()}`, {
        headers: { Authorization: `Bearer ${await options.token()}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new UnavailableError(`The identity provider's admin API answered ${response.status} to a search by email`);
      const users = (await response.json()) as { id?: unknown; email?: unknown }[];
      // exact=true matches the whole address; an older server that ignores it matches a part
      return users
        .filter((user) => typeof user.id === 'string' && typeof user.email === 'string' && user.email.toLowerCase() === email)
        .map((user) => user.id as string);
    },
    async removeAccount(id) {
      const response = await fetch(`${base}/users/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${await options.token()}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status === 204 || response.status === 404) return;
      throw new Error(`the identity provider's admin API answered ${response.status} to the removal of account ${id}`);
    },
    async setHandle(id, handle) {
      const url = `${base}/users/${encodeURIComponent(id)}`;
      const headers = { Authorization: `Bearer ${await options.token()}` };
      const found = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
      if (!found.ok) throw new Error(`the identity provider's admin API answered ${found.status} to a read of account ${id}`);
      const user = (await found.json()) as { attributes?: Record<string, string[]> };
      const response = await fetch(url, {
        method: 'PUT',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...user, attributes: { ...user.attributes, handle: [handle] } }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`the identity provider's admin API answered ${response.status} to the handle of account ${id}`);
    },
    async setModerator(id, moderator) {
      const headers = { Authorization: `Bearer ${await options.token()}` };
      const mappings = `${base}/users/${encodeURIComponent(id)}/role-mappings/realm`;
      // the realm roles it may still get (to give it the role) or has (to take it)
      const found = await fetch(moderator ? `${mappings}/available` : mappings, { headers, signal: AbortSignal.timeout(10_000) });
      if (found.status === 404) return;
      if (!found.ok) throw new Error(`the identity provider's admin API answered ${found.status} to a read of the roles of account ${id}`);
      const role = ((await found.json()) as { id: string; name: string }[]).find((r) => r.name === 'moderator');
      if (!role) return;
      const response = await fetch(mappings, {
        method: moderator ? 'POST' : 'DELETE',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify([{ id: role.id, name: role.name }]),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok || response.status === 404) return;
      throw new Error(`the identity provider's admin API answered ${response.status} to the moderator role of account ${id}`);
    },
    async emailVerified(id) {
      const response = await fetch(`${base}/users/${encodeURIComponent(id)}`, {
        headers: { Authorization: `Bearer ${await options.token()}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status === 404) return false;
      if (!response.ok) throw new Error(`the identity provider's admin API answered ${response.status} to a read of account ${id}`);
      return ((await response.json()) as { emailVerified?: unknown }).emailVerified === true;
    },
  };
}
