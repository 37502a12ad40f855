/* Context save/resume and call-on-another-stack for the lx106 (call0 ABI:
 * a0 return address, a1 stack pointer, a12..a15 callee-saved). See
 * context.h. No literals, so the code is position independent. */
	.text
	.align	4
	.global	q7rt_ctx_save
	.type	q7rt_ctx_save, @function
q7rt_ctx_save:
	s32i	a0, a2, 0
	s32i	a1, a2, 4
	s32i	a12, a2, 8
	s32i	a13, a2, 12
	s32i	a14, a2, 16
	s32i	a15, a2, 20
	movi	a2, 0
	ret
	.size	q7rt_ctx_save, . - q7rt_ctx_save

	.align	4
	.global	q7rt_ctx_resume
	.type	q7rt_ctx_resume, @function
q7rt_ctx_resume:
	l32i	a0, a2, 0
	l32i	a1, a2, 4
	l32i	a12, a2, 8
	l32i	a13, a2, 12
	l32i	a14, a2, 16
	l32i	a15, a2, 20
	movi	a4, 1
	moveqz	a3, a4, a3	/* resuming with 0 would look like the save */
	mov	a2, a3
	ret
	.size	q7rt_ctx_resume, . - q7rt_ctx_resume

	.align	4
	.global	q7rt_call_on_stack
	.type	q7rt_call_on_stack, @function
q7rt_call_on_stack:
	s32i	a0, a3, 0	/* the caller's a0 and sp live above the new sp */
	s32i	a1, a3, 4
	mov	a1, a3
	callx0	a2
	l32i	a0, a1, 0
	l32i	a1, a1, 4
	ret
	.size	q7rt_call_on_stack, . - q7rt_call_on_stack
