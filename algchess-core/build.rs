fn main() {
    lalrpop::process_src().expect("grammar");
}
