//! Payment gateways: PromptPay EMVCo payloads, GB Prime Pay and OPN adapters, the sandbox
//! gateway and webhook verification. Knows nothing of HTTP routing or SQL.
