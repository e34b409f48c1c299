/** The text of the four policy pages. Plain data so the page stays a thin layout. */
export const LEGAL_LAST_UPDATED = 'September 18, 2025';

export type LegalDocumentId = 'terms-of-service' | 'privacy-policy' | 'community-guidelines' | 'copyright-policy';

export interface LegalDocument {
  title: string;
  intro: string;
  sections: Array<{ heading: string; paragraphs: string[] }>;
}

export const LEGAL_DOCUMENTS: Record<LegalDocumentId, LegalDocument> = {
  'terms-of-service': {
    title: 'Terms of Service',
    intro:
      'These Terms of Service govern your use of Lively, a subscription platform for adult creators and their fans that offers creator content, direct messages and live one-to-one video chat. By creating an account or using the site you agree to these terms. If you do not agree, do not use Lively.',
    sections: [
      {
        heading: 'Adults only',
        paragraphs: [
          'Lively is an adult-only service. You must be at least 18 years old, and of the age of majority where you live, to visit, register or use any part of the site. Minors may not use Lively under any circumstances, and we do not knowingly collect information from anyone under 18.',
          'Because the site contains content intended for adults, we verify age with a credit card authorization at sign-up. If we learn or reasonably suspect that an account belongs to a minor, we close it immediately and report it where the law requires.',
        ],
      },
      {
        heading: 'Your account',
        paragraphs: [
          'You must give accurate, current and complete information when you register (your real name, a working email address and a payment card in your own name) and keep it up to date. Accounts created with false information, or on behalf of someone else, may be suspended or closed.',
          'You are responsible for keeping your password confidential and for everything done with your account. Tell us at once if you believe your account has been used without your permission. After repeated failed sign-in attempts an account is temporarily locked to protect it.',
        ],
      },
      {
        heading: 'Membership and billing',
        paragraphs: [
          'Site membership costs $1.99 per month. It renews automatically each month and is charged to the card you provided until you cancel. The charge appears on your statement as an official Lively membership subscription. A six-month plan paid from your converted crypto balance costs six times the monthly price and gives seven months of membership.',
          'You may cancel at any time from the subscription page; your membership stays active until the end of the period already paid. Subscriptions to individual creators are separate from site membership and are billed at the price the creator sets.',
        ],
      },
      {
        heading: 'Creators',
        paragraphs: [
          'Any member may register as a creator. Creators must own or have the rights to everything they publish, must have documented consent and proof of age of every person who appears in their content, and must follow the Community Guidelines. Creators receive 90% of the earnings from their subscriptions; Lively keeps 10% as a platform fee. Payouts are made to a verified payment account.',
        ],
      },
      {
        heading: 'Acceptable use',
        paragraphs: [
          'You agree not to: upload content involving minors or anyone who has not consented; harass, threaten or impersonate others; record, redistribute or resell other members’ content or video chats; use the site for illegal activity, fraud or spam; or try to bypass security, payment or age-verification measures.',
          'We may remove content and suspend or deactivate accounts that break these terms, with or without notice. A deactivated account can no longer sign in.',
        ],
      },
      {
        heading: 'Video chat',
        paragraphs: [
          'Live video chat is available to subscribed, age-verified members. Chats are peer to peer and are not recorded by Lively. You may leave or skip a chat at any time and report or block anyone who behaves inappropriately.',
        ],
      },
      {
        heading: 'Disclaimers and liability',
        paragraphs: [
          'Lively is provided “as is”. We do not guarantee that the site will always be available or error free, and we are not responsible for content posted by members or creators. To the fullest extent the law allows, our liability for any claim relating to the service is limited to the amount you paid us in the twelve months before the claim.',
        ],
      },
      {
        heading: 'Changes and contact',
        paragraphs: [
          'We may update these terms; the date at the top shows when they last changed, and material changes are announced on the site. Continuing to use Lively after a change means you accept the new terms. Questions can be sent through the Contact Us page.',
        ],
      },
    ],
  },
  'privacy-policy': {
    title: 'Privacy Policy',
    intro:
      'This policy explains what personal information Lively collects, why we collect it, how long we keep it and the choices you have. We collect only what we need to run an age-verified subscription service safely.',
    sections: [
      {
        heading: 'Information we collect',
        paragraphs: [
          'Account information: your name, email address and a password, which we store only as a secure one-way hash. Payment information: your card is handled by our payment processor, which gives us a token, the last four digits and the result of each charge; we never store full card numbers or security codes.',
          'Profile and activity: the profile, preferences and interests you enter for chat matching, posts, likes, messages, subscriptions, crypto wallet addresses and conversions, and payout accounts for creators. Technical data: IP address, browser type, a random identifier your browser keeps for this site, and logs of requests, which we use for security and troubleshooting.',
        ],
      },
      {
        heading: 'How we use it',
        paragraphs: [
          'We use your information to create and secure your account, verify that you are an adult, bill your membership, match you with chat partners according to your preferences, deliver messages and content, pay creators, prevent fraud and abuse, and meet our legal obligations. We do not sell your personal information.',
        ],
      },
      {
        heading: 'Sharing',
        paragraphs: [
          'We share information only with service providers who help us run Lively (payment processing, email delivery, hosting), under contracts that limit their use of it; with other members where you choose to (your public profile, posts and messages); and with authorities when the law requires it or to protect someone’s safety.',
        ],
      },
      {
        heading: 'Video chat',
        paragraphs: [
          'Video and audio in chats travel directly between participants and are not recorded or stored by Lively. We keep records of chat sessions (who, when, how long, and any report) to enforce our rules.',
        ],
      },
      {
        heading: 'Retention and security',
        paragraphs: [
          'We keep account records while your account is open and for as long afterwards as needed for billing, tax, fraud prevention and legal requirements. Passwords are hashed, sessions use secure cookies, and password reset links expire after one hour and work only once.',
        ],
      },
      {
        heading: 'Your choices and rights',
        paragraphs: [
          'You can view and update your profile at any time, mark your chat profile private, cancel your membership, and ask us for a copy of your data or to delete your account through the Contact Us page. Depending on where you live you may have further rights of access, correction, deletion and objection.',
        ],
      },
      {
        heading: 'Children',
        paragraphs: [
          'Lively is for adults only. We do not knowingly collect information from anyone under 18 and delete any such account we discover.',
        ],
      },
      {
        heading: 'Changes',
        paragraphs: ['We will post any change to this policy on this page and update the date above.'],
      },
    ],
  },
  'community-guidelines': {
    title: 'Community Guidelines',
    intro:
      'Lively is a community of verified adults. These guidelines apply to everything on the site: profiles, posts, messages and live video chat. Breaking them can lead to content removal, suspension or permanent deactivation.',
    sections: [
      {
        heading: 'Consent and age',
        paragraphs: [
          'Everyone who appears in content must be 18 or older and must have consented to being filmed and to the content being published. Content involving minors, or that sexualizes anyone who appears to be a minor, is forbidden and is reported to the authorities.',
        ],
      },
      {
        heading: 'Respect',
        paragraphs: [
          'Treat other members with respect. Harassment, threats, hate speech, bullying and discrimination based on race, ethnicity, religion, gender, gender identity, sexual orientation or disability are not allowed. “No” means no: stop contacting anyone who asks you to.',
        ],
      },
      {
        heading: 'Privacy',
        paragraphs: [
          'Do not record, screenshot or share other members’ video chats, messages or paid content. Do not post anyone’s personal information (real name, address, workplace) without their permission.',
        ],
      },
      {
        heading: 'Prohibited content',
        paragraphs: [
          'Not allowed: non-consensual content, real violence or incitement to it, illegal drugs or weapons sales, human trafficking or solicitation of prostitution, bestiality, and content that infringes someone else’s copyright.',
        ],
      },
      {
        heading: 'Honesty and payments',
        paragraphs: [
          'Be yourself: no impersonation, fake accounts or misleading profiles. Do not ask members to pay outside Lively, and do not use the site for scams, spam or unsolicited advertising.',
        ],
      },
      {
        heading: 'Reporting',
        paragraphs: [
          'If you see something that breaks these guidelines, report it. In video chat you can skip, leave, block or report a partner at any time. We review reports promptly and act on them.',
        ],
      },
    ],
  },
  'copyright-policy': {
    title: 'Copyright Policy',
    intro:
      'Lively respects the intellectual property of creators and expects members to do the same. Creators keep the copyright in the content they publish; by posting it they grant Lively a licence to host and show it to the audience they choose.',
    sections: [
      {
        heading: 'What you may post',
        paragraphs: [
          'Post only content you created yourself or have the rights to publish. Content belonging to other creators, studios or photographers may not be uploaded without their written permission.',
        ],
      },
      {
        heading: 'Reporting infringement',
        paragraphs: [
          'If you believe content on Lively infringes your copyright, send a notice through the Contact Us page that includes: your contact details; a description of the work; the link to the content you believe infringes it; a statement that you believe in good faith that the use is not authorized; a statement, under penalty of perjury, that the notice is accurate and that you are the owner or authorized to act for the owner; and your physical or electronic signature.',
        ],
      },
      {
        heading: 'Counter-notices',
        paragraphs: [
          'If your content was removed and you believe it was a mistake or you have the rights to it, you may send a counter-notice with your contact details, the removed content, a statement under penalty of perjury that it was removed by mistake, and your consent to the jurisdiction of the appropriate court. We may restore the content unless the claimant starts legal action.',
        ],
      },
      {
        heading: 'Repeat infringers',
        paragraphs: [
          'Accounts that repeatedly infringe copyright are deactivated. Creators who lose their account this way forfeit pending earnings connected to the infringing content.',
        ],
      },
      {
        heading: 'Redistribution of paid content',
        paragraphs: [
          'Content behind a subscription or a paid message is licensed to you for personal viewing on Lively only. Downloading, recording or sharing it elsewhere infringes the creator’s copyright and breaks our Terms of Service.',
        ],
      },
    ],
  },
};
