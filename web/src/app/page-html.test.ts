import '@/test-support/jsdom-setup';
import createCache from '@emotion/cache';
import { hoistStyles, inertControls } from './page-html';

describe('hoistStyles', () => {
  const rendered =
    '<style data-emotion="css-global g1">html{margin:0}</style><main>' +
    '<style data-emotion="css a1 a2">.css-a1{color:red}.css-a2{color:blue}</style><p>Hi</p>' +
    '<style data-emotion="css b1">.css-b1{gap:8px}</style></main>';

  it('takes the styles out of the markup: the globals tag by tag, the rules in one tag', () => {
    const { markup, style } = hoistStyles(rendered);
    expect(markup).toBe('<main><p>Hi</p></main>');
    expect(style).toBe(
      '<style data-s="" data-emotion="css-global g1">html{margin:0}</style>' +
        '<style data-s="" data-emotion="css a1 a2 b1">.css-a1{color:red}.css-a2{color:blue}.css-b1{gap:8px}</style>',
    );
  });

  it("gives the browser's emotion tags it adopts where they are, knowing their rules", () => {
    document.head.innerHTML = hoistStyles(rendered).style;
    const appended = jest.spyOn(document.head, 'appendChild');
    const cache = createCache({ key: 'css' });
    expect(appended).not.toHaveBeenCalled(); // not moved to the head's end first
    expect(Object.keys(cache.inserted).sort()).toEqual(['a1', 'a2', 'b1']);
    appended.mockRestore();
  });
});

describe('inertControls', () => {
  it('disables the controls that are not disabled already, until React adopts them', () => {
    expect(inertControls('<button type="button">Go</button><input disabled name="q">')).toBe(
      '<button disabled data-until-hydrated type="button">Go</button><input disabled name="q">',
    );
  });
});
