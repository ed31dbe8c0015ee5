import { expect } from 'chai';
import { html, trustedHtml } from '../../../packages/http/html.ts';

describe('the html page template', () => {
  it('escapes interpolated text and attribute values', () => {
    const name = `Ann's "shop" <script>alert(1)</script> & more`;
    expect(html`<p title="${name}">${name}</p>`.markup).to.equal(
      '<p title="Ann&#39;s &quot;shop&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; more">' +
        'Ann&#39;s &quot;shop&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>',
    );
  });

  it('nests fragments without escaping them twice, joins lists and renders nothing for null, undefined and false', () => {
    const items = ['a&b', '<c>'].map((item) => html`<li>${item}</li>`);
    const page = html`<ul>${items}</ul>${null}${undefined}${false}${0}${html`<b>${'x<y'}</b>`}`;
    expect(page.markup).to.equal('<ul><li>a&amp;b</li><li>&lt;c&gt;</li></ul>0<b>x&lt;y</b>');
  });

  it('keeps markup we mark as ours as it is', () => {
    expect(html`<style>${trustedHtml('a>b{color:red}')}</style>`.markup).to.equal('<style>a>b{color:red}</style>');
  });
});
