#include "textflag.h"

// func indexSpecialSSE2(b []byte) int
// The index of the first byte of b that is '"', '\\' or below 0x20, or len(b).
TEXT ·indexSpecialSSE2(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ SI, DI
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1 // 16 quotes
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2 // 16 backslashes
	MOVQ $0x1f1f1f1f1f1f1f1f, AX
	MOVQ AX, X3
	PUNPCKLQDQ X3, X3 // 16 × 0x1f

loop:
	CMPQ BX, $16
	JB   tail
	MOVOU (SI), X0
	MOVO X0, X4
	PCMPEQB X1, X4    // quotes
	MOVO X0, X5
	PCMPEQB X2, X5    // backslashes
	POR  X5, X4
	MOVO X0, X6
	PMINUB X3, X6
	PCMPEQB X0, X6    // min(c, 0x1f) == c: control characters
	POR  X6, X4
	PMOVMSKB X4, AX
	TESTL AX, AX
	JNZ  found
	ADDQ $16, SI
	SUBQ $16, BX
	JMP  loop

found:
	BSFL AX, AX
	SUBQ DI, SI
	ADDQ SI, AX
	MOVQ AX, ret+24(FP)
	RET

tail:
	TESTQ BX, BX
	JZ   done
	MOVBLZX (SI), AX
	CMPL AX, $0x22
	JEQ  done
	CMPL AX, $0x5c
	JEQ  done
	CMPL AX, $0x20
	JB   done
	INCQ SI
	DECQ BX
	JMP  tail

done:
	SUBQ DI, SI
	MOVQ SI, ret+24(FP)
	RET
