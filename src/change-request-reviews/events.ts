// The changes of reviews that are recorded (src/kernel/events.ts), with their labels: a review submitted (with the
// comment it is given with, recorded as that comment's creation), reviewers asked for and a request taken back.
export const changeRequestReviewsActions = {
  change_request_review_submitted: 'Change request review submitted',
  change_request_reviewers_requested: 'Change request reviewers requested',
  change_request_reviewer_removed: 'Change request reviewer removed',
} as const;
