/* The soft-body and engine tests, one file per feature, listed together
 * in the "softbody" table of test_softbody.c. */
#ifndef XPBD_TEST_SOFTBODY_H
#define XPBD_TEST_SOFTBODY_H

/* test_engine_contract.c */
void engine_create_zeroed(void);
void engine_create_steppable(void);
void engine_tether_dynamic_anchor(void);
void engine_first_body_later(void);
void engine_apply_overflow(void);

#endif /* XPBD_TEST_SOFTBODY_H */
