// The kiosk's own words in English: the catalog every other language follows, key for key (the
// type of this object is the shape each catalog must have). Messages use the ICU MessageFormat
// of intl-messageformat: {name} for a value, {n, plural, one {…} other {…}} for counts.

export const en = {
  idle: {
    invite: 'Talk to me or use the screen.',
    start: 'Start',
  },
  bar: {
    back: 'Back',
    startOver: 'Start over',
  },
  stillThere: {
    title: 'Are you still there?',
    text: 'For your privacy this screen will clear itself in {seconds, plural, one {# second} other {# seconds}}.',
    stay: "I'm still here",
    leave: 'Start over',
  },
  startOver: {
    title: 'Start over?',
    text: 'Everything you have entered will be cleared.',
    yes: 'Yes, start over',
    no: 'No, go on',
  },
  answer: {
    label: 'Type your answer',
    send: 'Send',
  },
  captions: {
    label: 'Captions',
    you: 'You',
    kiosk: 'Kiosk',
  },
  end: {
    thanks: 'All done. Thank you!',
    summary: 'What you told us',
    yes: 'Yes',
    no: 'No',
    keepTalking: 'You can keep talking to me, or start over.',
    clearsIn: 'This screen clears itself in {seconds, plural, one {# second} other {# seconds}}.',
    finish: 'Finish',
  },
  field: {
    isThisRight: 'Is this right?',
    choose: 'Choose…',
    confirm: 'Confirm',
    confirmLabel: 'Confirm {label}',
    change: 'Change',
    changeLabel: 'Change {label}',
  },
  confirmAll: {
    question: 'Is all of this right?',
    button: 'Confirm all',
    label: 'Confirm all {count} answers',
  },
  options: {
    label: 'Options',
  },
  action: {
    title: 'Please confirm',
    yes: 'Yes, go ahead',
    no: 'No, cancel',
    change: 'Change',
    save: 'Save changes',
    keep: 'Keep as it was',
  },
  voice: {
    off: 'Not listening',
    starting: 'Starting the microphone…',
    preparing: 'Getting ready to listen…',
    listening: 'Listening',
    hearing: 'Hearing you…',
    thinking: 'Thinking…',
    speaking: 'Speaking',
    noMicrophone: 'Voice off: tap or type',
  },
};

/** Every catalog has this shape: the same keys, each a message. */
export type Messages = Strings<typeof en>;
type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
