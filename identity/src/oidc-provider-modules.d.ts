/** The two modules of oidc-provider that ./oidc-provider.ts imports, typed as the package's entry exports them. */
declare module 'oidc-provider/lib/provider.js' {
  import Provider from 'oidc-provider';
  export { Provider };
}
declare module 'oidc-provider/lib/helpers/errors.js' {
  import { errors } from 'oidc-provider';
  export = errors;
}
