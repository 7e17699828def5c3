#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| handeval_fuzz::shisanshui_arrange(data));
