import { runInNewContext } from 'node:vm';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULES, PASSWORD_SPECIALS, passwordProblem } from '@forum/contracts';

/** Show/hide buttons next to password inputs (`data-toggle` names the input). */
export const PASSWORD_TOGGLE = `(function(){var bs=document.querySelectorAll('button[data-toggle]');for(var i=0;i<bs.length;i++)(function(b){var p=document.getElementById(b.getAttribute('data-toggle'));if(!p)return;b.hidden=false;b.addEventListener('click',function(){var show=p.type==='password';p.type=show?'text':'password';b.textContent=show?'Hide':'Show';b.setAttribute('aria-pressed',String(show));b.setAttribute('aria-label',show?'Hide password':'Show password');p.focus();});})(bs[i]);})();`;

/** `<` cannot end a script element when escaped. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The password rules of contracts (spec §5), for the page: their own test functions and
 * messages, serialised. Used only when the serialised copy agrees with passwordProblem on a
 * set of samples (a build that rewrites functions, e.g. coverage, would break it): otherwise
 * the page leaves the rules to the server, which checks them anyway.
 */
function clientPasswordRules(): string | null {
  try {
    const source = `[${PASSWORD_RULES.map((rule) => `[${rule.test.toString()},${scriptJson(rule.message)}]`).join(',')}]`;
    const rules = runInNewContext(`"use strict";${source}`, { PASSWORD_SPECIALS }) as Array<[(p: string) => boolean, string]>;
    const samples = [
      '',
      'a',
      'abcdefgh',
      'ABCDEFGH',
      'Abcdefgh',
      'Abcdefg!',
      'abcdefg!',
      'ABCDEFG!',
      'Ab!',
      'Forum#2026',
      'Pass word-1',
      'Ünïcödé!X',
      `Aa${PASSWORD_SPECIALS}`,
    ];
    for (const sample of samples) {
      const expected = passwordProblem(sample);
      const actual = rules.find(([test]) => !test(sample))?.[1] ?? null;
      if (actual !== expected) return null;
    }
    return source;
  } catch {
    return null;
  }
}

const CLIENT_RULES = clientPasswordRules();

/**
 * Inline checks of `form[data-validate]` (spec §5, login and register): the password rules in order,
 * then the confirmation where the form has one (`#password-confirm`). A new password (a form with a
 * confirmation) is checked when its field is left too, except for its show/hide button (the message
 * would move the button away under the pointer); a sign-in's password when the form is sent.
 */
export const PASSWORD_CHECK = `(function(){var PASSWORD_SPECIALS=${scriptJson(PASSWORD_SPECIALS)};var RULES=${CLIENT_RULES ?? '[]'};var MISMATCH=${scriptJson(PASSWORD_MISMATCH_MESSAGE)};
var f=document.querySelector('form[data-validate]');if(!f)return;var p=document.getElementById('password'),c=document.getElementById('password-confirm');if(!p)return;
var pe=document.getElementById('password-error'),ce=c&&document.getElementById('password-confirm-error'),touched=false;
function show(input,el,msg){el.textContent=msg||'';el.hidden=!msg;if(msg)input.setAttribute('aria-invalid','true');else input.removeAttribute('aria-invalid');}
function rule(v){for(var i=0;i<RULES.length;i++){if(!RULES[i][0](v))return RULES[i][1];}return null;}
function check(all){var m=rule(p.value);show(p,pe,m);if(!c)return !m;var mm=!m&&(all||c.value)&&c.value!==p.value?MISMATCH:null;show(c,ce,mm);return !m&&!mm;}
f.addEventListener('submit',function(e){touched=true;if(!check(true)){e.preventDefault();(pe.hidden&&c?c:p).focus();}});
if(c)p.addEventListener('blur',function(e){if(p.value&&!(e.relatedTarget&&e.relatedTarget.getAttribute('data-toggle')==='password')){touched=true;check(false);}});
p.addEventListener('input',function(){if(touched)check(false);});
if(c)c.addEventListener('input',function(){if(touched||!ce.hidden)check(false);});
})();`;
