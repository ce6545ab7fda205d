/** <module> The bridge between Python (pyswip) and the rules

Loads rule files while capturing their error messages (file and line), and
runs a goal given as text under a time limit, returning every binding as a
JSON text (64-bit masks do not fit through pyswip's integer conversion).
Used by qubic_logic.engines.prolog; users need not load it.

==
?- qubic_run("X = 1 ; X = 2", 0, 0, Json, Status, Message).
Json = '[{"X":1},{"X":2}]', Status = ok, Message = ''.
==
*/
:- module(session, [qubic_load/2, qubic_load/3, qubic_run/6, qubic_first/7, qubic_first_masks/9]).
:- use_module(library(time)).

:- dynamic captured/1.
:- dynamic solution/1.

:- multifile user:message_hook/3.
user:message_hook(Term, error, Lines) :-
    nb_current(qubic_capturing, true),
    message_text(Term, Lines, Text),
    assertz(captured(Text)).
user:message_hook(Term, warning, Lines) :-      % one line each on stderr, not SWI's raw block
    nb_current(qubic_capturing, true),
    message_text(Term, Lines, Text),
    split_string(Text, "\n", " \t", Parts),
    atomic_list_concat(Parts, ' ', Line),
    (   source_location(File, LineNo)
    ->  format(user_error, "prolog: warning: ~w:~w: ~w~n", [File, LineNo, Line])
    ;   format(user_error, "prolog: warning: ~w~n", [Line])
    ).

message_text(_, Lines, Text) :-
    with_output_to(string(Text0), print_message_lines(current_output, '', Lines)),
    split_string(Text0, "", " \n", [Text]).

%!  qubic_load(+File, -Errors:list(string)) is det.
%   Load File into module user; Errors holds the text of each error message
%   (with file and line), [] when it loaded cleanly.
qubic_load(File, Errors) :-
    qubic_load(File, user, Errors).

%!  qubic_load(+File, +Module, -Errors:list(string)) is det.
%   Load File into Module (a strategy gets a module of its own, so that two
%   strategies may both define play/1); Errors as for qubic_load/2.
qubic_load(File, Module, Errors) :-
    retractall(captured(_)),
    setup_call_cleanup(
        nb_setval(qubic_capturing, true),
        catch(load_files(Module:File, [if(true)]), E,
              ( message_to_codes_safe(E, Text), assertz(captured(Text)) )),
        nb_setval(qubic_capturing, false)),
    findall(T, retract(captured(T)), Errors).

message_to_codes_safe(E, Text) :-
    catch('$messages':translate_message(E, Lines, []), _, fail), !,
    message_text(E, Lines, Text).
message_to_codes_safe(E, Text) :-
    term_string(E, Text).

%!  qubic_run(+GoalText, +Seconds, +Max, -Json, -Status, -Message) is det.
%   Run the goal GoalText in module user (all solutions, at most Max when
%   Max > 0, within Seconds when Seconds > 0). Json is a JSON array with one
%   object per solution mapping variable names to values; Status is ok,
%   timeout or error, and Message the text of the error ('' otherwise). On a
%   timeout Message is what the goal reported as progress with
%   nb_setval(qubic_progress, Text) ('' when nothing).
%   The solutions found before a timeout or an error are kept in Json; each is
%   also handed to user:qubic_found/1 (JSON text) when the host defines it.
qubic_run(GoalText, Seconds, Max, Json, Status, Message) :-
    nb_setval(qubic_progress, ''),
    retractall(solution(_)),
    catch(( run(GoalText, Seconds, Max), Status = ok, Message = '' ), E,
          error_status(E, Status, Message)),
    findall(S, retract(solution(S)), Solutions),
    solutions_json(Solutions, Json).

%!  qubic_first(+Module, +Xs, +Os, +Seconds, -Value, -Status, -Message) is det.
%   Set the position (threats:set_position/2), then take the first solution
%   of Module:play(C) within Seconds (0: no limit). Value is the cell C, or -1 when
%   there is no solution; Status is ok, timeout, error, or not_a_cell when
%   C is no integer (Message holds its text).
qubic_first(Module, Xs, Os, Seconds, Value, Status, Message) :-
    nb_setval(qubic_progress, ''),
    threats:set_position(Xs, Os),
    catch(( limited_call(Seconds, first_play(Module, C)), answer(C, Value, Status, Message) ), E,
          ( Value = -1, error_status(E, Status, Message) )).

%!  qubic_first_masks(+Module, +XLow, +XHigh, +OLow, +OHigh, +Millis, -Value, -Status, -Message) is det.
%   qubic_first/7 with the position as the 32-bit halves of X's and O's masks and the time
%   limit in milliseconds: small integers, which the foreign interface passes without parsing;
%   Message is an atom.
qubic_first_masks(Module, XLow, XHigh, OLow, OHigh, Millis, Value, Status, Message) :-
    X is XHigh << 32 \/ XLow, mask_cells(X, Xs),
    O is OHigh << 32 \/ OLow, mask_cells(O, Os),
    Seconds is Millis / 1000,
    qubic_first(Module, Xs, Os, Seconds, Value, Status, Text),
    atom_string(Message, Text).

mask_cells(0, []) :- !.
mask_cells(Mask, [C|Cs]) :- C is lsb(Mask), Rest is Mask xor (1 << C), mask_cells(Rest, Cs).

limited_call(Seconds, Goal) :- Seconds > 0, !, call_with_time_limit(Seconds, Goal).
limited_call(_, Goal) :- call(Goal).

first_play(Module, C) :- ( Module:play(C0) -> C = some(C0) ; C = none ).

answer(none, -1, ok, '').
answer(some(C), C, ok, '') :- integer(C), !.
answer(some(C), -1, not_a_cell, Text) :- term_string(C, Text).

run(GoalText, Seconds, Max) :-
    term_string(Goal, GoalText, [variable_names(Bindings)]),
    Find = forall(limited(Max, user:Goal), found(Bindings)),
    (   Seconds > 0 -> call_with_time_limit(Seconds, Find) ; call(Find) ).

found(Bindings) :-
    assertz(solution(Bindings)),
    (   current_predicate(user:qubic_found/1)
    ->  solution_json(Bindings, Json), user:qubic_found(Json)
    ;   true
    ).

limited(0, Goal) :- !, call(Goal).
limited(Max, Goal) :- limit(Max, Goal).

error_status(time_limit_exceeded, timeout, Progress) :- !,
    nb_getval(qubic_progress, Progress).
error_status(error(Formal, _), error, Message) :- !,     % drop the context (this bridge)
    message_to_codes_safe(error(Formal, _), Text), atom_string(Message, Text).
error_status(E, error, Message) :-
    message_to_codes_safe(E, Text), atom_string(Message, Text).

solutions_json(Solutions, Json) :-
    maplist(solution_json, Solutions, Parts),
    atomic_list_concat(Parts, ',', Inner),
    format(atom(Json), '[~w]', [Inner]).

solution_json(Bindings, Json) :-
    include(named, Bindings, Named),
    maplist(binding_json, Named, Parts),
    atomic_list_concat(Parts, ',', Inner),
    format(atom(Json), '{~w}', [Inner]).

named(Name = _) :- \+ sub_atom(Name, 0, _, _, '_').

binding_json(Name = Value, Json) :-
    value_json(Value, V),
    string_json(Name, N),
    format(atom(Json), '~w:~w', [N, V]).

value_json(V, J) :- integer(V), !, format(atom(J), '~d', [V]).
value_json(V, J) :- float(V), !, format(atom(J), '~w', [V]).
value_json(V, J) :- is_list(V), !,
    maplist(value_json, V, Js), atomic_list_concat(Js, ',', Inner),
    format(atom(J), '[~w]', [Inner]).
value_json(V, J) :- ( atom(V) ; string(V) ), !, string_json(V, J).
value_json(V, J) :- term_string(V, S), string_json(S, J).

string_json(Text, Json) :-
    atom_json(Text, Json).

atom_json(Text, Json) :-
    atom_codes(Text, Codes),
    foldl(escape, Codes, Escaped, []),
    atom_codes(Body, Escaped),
    format(atom(Json), '"~w"', [Body]).

escape(0'", [0'\\, 0'" | T], T) :- !.
escape(0'\\, [0'\\, 0'\\ | T], T) :- !.
escape(0'\n, [0'\\, 0'n | T], T) :- !.
escape(C, [C | T], T).
