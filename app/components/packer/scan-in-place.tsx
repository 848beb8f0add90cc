import { useNonce } from "~/components/document-facts";

/**
 * The packer's scan form posted in place (ADR 103), when JavaScript runs: each Enter sends the form as
 * it is, in turn (a fast scanner's next code waits for the answer to the one before), and the answer's
 * page replaces `#pk-order`, keeping whatever the scanner typed meanwhile; a refusal sounds a low
 * buzz, an accepted bag a short beep. Without JavaScript the same form posts and the page comes back.
 * Inline, so the packer's pages still load no bundle; a failed request falls back to the plain post.
 */
const SCRIPT = `(function(){
var A=window.AudioContext||window.webkitAudioContext,ctx,queue=Promise.resolve();
function sound(bad){try{ctx=ctx||new A();var o=ctx.createOscillator(),g=ctx.createGain();o.type=bad?"square":"sine";o.frequency.value=bad?180:1200;g.gain.value=bad?.3:.15;o.connect(g);g.connect(ctx.destination);o.start();o.stop(ctx.currentTime+(bad?.7:.12))}catch(e){}}
document.addEventListener("submit",function(event){
var form=event.target;if(!form.hasAttribute||!form.hasAttribute("data-scan"))return;
event.preventDefault();
var body=new URLSearchParams(new FormData(form)),url=form.action,field=form.querySelector("input[name=code]"),code=field?field.value:"";
if(field)field.value="";
queue=queue.then(function(){return fetch(url,{method:"POST",body:body,credentials:"same-origin"}).then(function(answer){return answer.text()}).then(function(html){
var next=new DOMParser().parseFromString(html,"text/html").getElementById("pk-order"),page=document.getElementById("pk-order");
if(!next||!page)throw new Error("no page");
var typed=document.getElementById("bag-code");typed=typed?typed.value:"";
page.replaceWith(next);
var result=next.querySelector("[data-scan-result]");if(result)sound(result.getAttribute("data-scan-result")==="refused");
var input=document.getElementById("bag-code");if(input){input.value=typed;input.focus()}
})}).catch(function(){if(field)field.value=code;HTMLFormElement.prototype.submit.call(form)});
});
})()`;

export function ScanInPlace() {
  return <script nonce={useNonce()} dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
