/**
 * The site's icon (issue #30: there was none): the sidebar's default logo, two linked rings on
 * the primary colour, as an SVG every current browser takes as a favicon. The portal's host page
 * (and so every public page it renders) links it; /favicon.ico, which browsers ask for on their
 * own (the API's JSON, the dev mailbox), is sent to it.
 */
export const faviconPath = '/favicon.svg';

export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">
<rect width="40" height="40" rx="8" fill="#0f6e6e"/>
<circle cx="16" cy="20" r="8" fill="none" stroke="#ffffff" stroke-width="3"/>
<circle cx="24" cy="20" r="8" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.75"/>
</svg>
`;
