/** SPEC §2: six social links whose targets are placeholders until marketing provides the real ones. */
export const SOCIAL_LINKS = [
  {
    name: 'LinkedIn',
    href: '#linkedin',
    icon: 'M4 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4zM3 9h3v12H3zM9 9h3v1.7c.5-.9 1.7-1.9 3.5-1.9 3.6 0 4.5 2.3 4.5 5.4V21h-3v-6c0-1.5-.1-3.3-2.1-3.3s-2.4 1.6-2.4 3.2V21H9z',
  },
  {
    name: 'Facebook',
    href: '#facebook',
    icon: 'M14 8V6.5c0-.8.2-1.5 1.5-1.5H17V2h-2.5C11.6 2 11 4 11 6v2H9v3h2v11h3V11h2.6l.4-3z',
  },
  {
    name: 'Instagram',
    href: '#instagram',
    icon: 'M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5zm0 2a3 3 0 0 0-3 3v10a3 3 0 0 0 3 3h10a3 3 0 0 0 3-3V7a3 3 0 0 0-3-3zm5 3.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM17.5 5.5a1 1 0 1 1 0 2 1 1 0 0 1 0-2z',
  },
  {
    name: 'YouTube',
    href: '#youtube',
    icon: 'M22 8.2s-.2-1.6-.9-2.3c-.9-.9-1.9-.9-2.3-1C15.6 4.7 12 4.7 12 4.7s-3.6 0-6.8.2c-.4.1-1.4.1-2.3 1C2.2 6.6 2 8.2 2 8.2S1.8 10 1.8 11.9v1.7c0 1.9.2 3.7.2 3.7s.2 1.6.9 2.3c.9.9 2 .9 2.5 1 1.8.2 7.6.2 7.6.2s3.6 0 6.8-.2c.4-.1 1.4-.1 2.3-1 .7-.7.9-2.3.9-2.3s.2-1.8.2-3.7v-1.7C22.2 10 22 8.2 22 8.2zM9.9 15.3V8.9l5.8 3.2z',
  },
  {
    name: 'Newsletter',
    href: '#newsletter',
    icon: 'M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm1 2.4V17h16V7.4l-8 5.3zM5.6 7l6.4 4.2L18.4 7z',
  },
  {
    name: 'X',
    href: '#x',
    icon: 'M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.3L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z',
  },
] as const;
